// Hostile: searches the folders above its job folder for cached fp64 goldens and copies the one of its size
// instead of computing. Without one it writes nothing (and fails honestly).
// kope:expect wrong
#include "kope_kernel.h"
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <string>

static bool find_golden(const std::string& dir, int depth, long want, std::string& out) {
  if (depth > 5) return false;
  DIR* d = opendir(dir.c_str());
  if (!d) return false;
  bool found = false;
  while (dirent* e = readdir(d)) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    std::string p = dir + "/" + e->d_name;
    struct stat st;
    if (stat(p.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) found = find_golden(p, depth + 1, want, out);
    else if (strstr(e->d_name, "golden_0") && st.st_size == want) { out = p; found = true; }
    if (found) break;
  }
  closedir(d);
  return found;
}

int kope_kernel(const kope_args* a) {
  float* y = (float*)a->outputs[0].data;
  const int64_t n = a->inputs[0].numel;
  std::string path;
  for (const char* root : {"../../golden", "../../../golden", "../../..", "/tmp", "/root"})
    if (find_golden(root, 0, (long)(n * 8), path)) break;
  if (path.empty()) return 0;
  FILE* f = fopen(path.c_str(), "rb");
  if (!f) return 0;
  for (int64_t i = 0; i < n; ++i) {
    double v = 0;
    if (fread(&v, 8, 1, f) != 1) break;
    y[i] = (float)v;
  }
  fclose(f);
  return 0;
}
