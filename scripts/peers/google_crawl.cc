// A peer of `robots-batch crawl` in scripts/bench-crawl-peers: the loop a
// user of Google's robots.txt library (github.com/google/robotstxt) would
// write over a crawl log. Our own file; the library is not part of this
// repository: the benchmark compiles this driver against the copy in
// ../shared/peers/google-robotstxt at run time, with g++ and Debian's
// libabsl-dev:
//
//   g++ -std=c++17 -O2 -DNDEBUG -I../shared/peers/google-robotstxt \
//       scripts/peers/google_crawl.cc \
//       ../shared/peers/google-robotstxt/robots.cc -o google_crawl \
//       $(pkg-config --libs absl_strings)
//
// Usage: google_crawl [--count-only] ROBOTS_DIR URLS [AGENT]
//        google_crawl --per-file ROBOTS_DIR NAMES [AGENT [REPS]]
//
// ROBOTS_DIR/<host>.txt is the robots.txt of <host>, as with `crawl
// --robots-dir`. Each line of URLS (`\r` stripped) is an absolute URL; its
// host (between `://` and the next `/`, `?` or `#`, without user info or
// port, lower-cased) is looked up in a map of the hosts met so far. A host
// met for the first time has its file read into the map (a host without a
// file gets an empty body, which allows everything). Then, as the library's
// users call it, `RobotsMatcher::OneAgentAllowedByRobots(body, AGENT, url)`
// (AGENT default `*`), which parses the body again on every call; one
// matcher object serves every call (each call starts afresh). `URL,allowed`
// or `URL,disallowed` goes to stdout through a 64 KiB buffer, so that the
// work compares with robots-batch's CSV output (`--count-only` skips it). A
// line without a host is judged by nothing: `URL,unknown`, counted apart.
//
// On stderr: `hosts=H without_file=W no_host=N` and
// `allowed=A disallowed=D total=T` (lines without a host not in T).
//
// With --per-file (for scripts/bench-origin-cost): for each file name in
// NAMES (one a line, `<host>.txt`), the file is read once, then
// `OneAgentAllowedByRobots(body, AGENT, "http://<host>/")` is timed REPS
// times (default 20) and the best goes to stdout as `name,google_ns`: what
// the library spends on a new host's first URL once its body is read.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <unordered_map>
#include <vector>

#include "robots.h"

namespace {

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream file(path, std::ios::in | std::ios::binary);
  if (!file.is_open()) return false;
  out->assign(std::istreambuf_iterator<char>(file),
              std::istreambuf_iterator<char>());
  return !file.bad();
}

// The host of an absolute URL as a crawler's loop would cut it; empty when
// there is none.
absl::string_view HostOf(absl::string_view url) {
  size_t scheme = url.find("://");
  if (scheme == absl::string_view::npos) return {};
  absl::string_view rest = url.substr(scheme + 3);
  absl::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
  size_t at = authority.rfind('@');
  if (at != absl::string_view::npos) authority = authority.substr(at + 1);
  size_t colon = authority.rfind(':');
  if (colon != absl::string_view::npos && authority.back() != ']') {
    authority = authority.substr(0, colon);
  }
  return authority;
}

// The --per-file mode (see the top of the file).
int PerFile(const std::vector<std::string>& args) {
  if (args.size() < 2 || args.size() > 4) {
    std::cerr << "usage: google_crawl --per-file ROBOTS_DIR NAMES [AGENT "
                 "[REPS]]"
              << std::endl;
    return 2;
  }
  std::string names;
  if (!ReadFile(args[1], &names)) {
    std::cerr << "google_crawl: cannot read " << args[1] << std::endl;
    return 2;
  }
  const std::string agent = args.size() > 2 ? args[2] : "BenchBot";
  const int reps = args.size() > 3 ? std::max(1, std::stoi(args[3])) : 20;
  googlebot::RobotsMatcher matcher;
  std::printf("name,google_ns\n");
  size_t pos = 0;
  while (pos < names.size()) {
    size_t end = names.find('\n', pos);
    if (end == std::string::npos) end = names.size();
    std::string name = names.substr(pos, end - pos);
    pos = end + 1;
    if (name.empty()) continue;
    std::string body;
    if (!ReadFile(args[0] + "/" + name, &body)) {
      std::cerr << "google_crawl: cannot read " << name << std::endl;
      return 2;
    }
    std::string url =
        "http://" + name.substr(0, name.size() - 4) + "/";
    long long best = -1;
    // Kept in memory, so that no call can be left out.
    volatile bool sink = false;
    for (int r = 0; r < reps; ++r) {
      auto start = std::chrono::steady_clock::now();
      sink = matcher.OneAgentAllowedByRobots(body, agent, url);
      auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::steady_clock::now() - start)
                    .count();
      if (best < 0 || ns < best) best = ns;
    }
    std::printf("%s,%lld\n", name.c_str(), best);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "--per-file") {
    return PerFile(std::vector<std::string>(args.begin() + 1, args.end()));
  }
  bool count_only = !args.empty() && args[0] == "--count-only";
  if (count_only) args.erase(args.begin());
  if (args.size() < 2 || args.size() > 3) {
    std::cerr << "usage: google_crawl [--count-only] ROBOTS_DIR URLS [AGENT]"
              << std::endl;
    return 2;
  }
  const std::string dir = args[0];
  const std::string agent = args.size() > 2 ? args[2] : "*";
  std::string urls;
  if (!ReadFile(args[1], &urls)) {
    std::cerr << "google_crawl: cannot read " << args[1] << std::endl;
    return 2;
  }

  std::unordered_map<std::string, std::string> bodies;
  std::string host, url;
  googlebot::RobotsMatcher matcher;
  std::vector<char> out_buf(1 << 16);
  std::setvbuf(stdout, out_buf.data(), _IOFBF, out_buf.size());
  unsigned long long allowed = 0, disallowed = 0, without_file = 0,
                     no_host = 0;
  size_t pos = 0;
  while (pos < urls.size()) {
    size_t end = urls.find('\n', pos);
    if (end == std::string::npos) end = urls.size();
    absl::string_view line(urls.data() + pos, end - pos);
    pos = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    absl::string_view h = HostOf(line);
    if (h.empty()) {
      ++no_host;
      if (!count_only) {
        std::fwrite(line.data(), 1, line.size(), stdout);
        std::fputs(",unknown\n", stdout);
      }
      continue;
    }
    host.assign(h.data(), h.size());
    for (char& c : host) {
      if (c >= 'A' && c <= 'Z') c = c - 'A' + 'a';
    }
    auto it = bodies.find(host);
    if (it == bodies.end()) {
      std::string body;
      if (!ReadFile(dir + "/" + host + ".txt", &body)) {
        ++without_file;
        body.clear();
      }
      it = bodies.emplace(host, std::move(body)).first;
    }
    url.assign(line.data(), line.size());
    bool ok = matcher.OneAgentAllowedByRobots(it->second, agent, url);
    if (ok) {
      ++allowed;
    } else {
      ++disallowed;
    }
    if (!count_only) {
      std::fwrite(line.data(), 1, line.size(), stdout);
      std::fputs(ok ? ",allowed\n" : ",disallowed\n", stdout);
    }
  }
  std::fflush(stdout);
  std::fprintf(stderr, "hosts=%zu without_file=%llu no_host=%llu\n",
               bodies.size(), without_file, no_host);
  std::fprintf(stderr, "allowed=%llu disallowed=%llu total=%llu\n", allowed,
               disallowed, allowed + disallowed);
  return 0;
}
