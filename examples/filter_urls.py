"""The main job from Python: which URLs of a list a crawler may fetch.

    pip install .
    python3 examples/filter_urls.py datasets/example/robots.txt \
        datasets/example/urls.txt GPTBot

It prints the allowed URLs, as `robots-batch --emit allowed` does.
"""
import sys

import robots_batch


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: filter_urls.py ROBOTS URLS AGENT")
    robots_path, urls_path, agent = sys.argv[1:]
    with open(robots_path, "rb") as f:
        # Parsed and compiled once; the verdicts of a whole list are one
        # call, which releases the GIL while it matches.
        matcher = robots_batch.Matcher(f.read(), agents=[agent])
    with open(urls_path, "rb") as f:
        urls = [line.rstrip(b"\r\n") for line in f]
    for url, verdict in zip(urls, matcher.verdicts(urls, agent=agent)):
        if verdict == "allowed":
            sys.stdout.buffer.write(url + b"\n")


if __name__ == "__main__":
    main()
