// Fake CANN tools for contract tests, one program under several names (installed as symlinks):
//   npu-smi info          prints $FAKE_ASCEND_DATA/npu_smi_$FAKE_NPU_SMI.txt byte for byte (default a2)
//   bisheng ... -xcce     checks --npu-arch, reports clang-style errors for `DataCopyy`, else builds a stub
//                         kernel (identity copy of input 0, records its launch) with the system c++; with
//                         FAKE_BISHENG_TWIN=1 and the twin installed (tools/tikicpulib), builds the kernel itself
//                         against the twin's headers instead, so the fake board computes (launches recorded)
//   bisheng ...           (host code) passes everything to the system c++
//   msprof op [opts] APP  runs APP, then writes OPPROF_<ts>_<16 letters>/ with OpBasicInfo.csv and counter CSVs for
//                         the launches matching --kernel-name (after --warm-up), per launch when several
//   msopgen gen -i op.json -c ai_core-SOC -lan cpp -out DIR     writes an operator project whose build.sh
//                         compiles op_kernel/ through bisheng and wraps its errors as ascendc.cmake does
// The formats are those of shared/docs/ASCEND_TOOLS.md; where that file says "unverified", so is the fake.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::string env(const char* n, const std::string& fallback = "") {
  const char* v = std::getenv(n);
  return v && *v ? v : fallback;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void spit(const fs::path& p, const std::string& s) { std::ofstream(p, std::ios::binary) << s; }

int run(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env = {}) {
  pid_t pid = fork();
  if (pid == 0) {
    for (const auto& e : extra_env) putenv(strdup(e.c_str()));
    std::vector<char*> a;
    for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
    a.push_back(nullptr);
    execvp(a[0], a.data());
    std::fprintf(stderr, "fake: cannot run %s\n", argv[0].c_str());
    _exit(127);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

fs::path toolkit_home(const char* argv0) {
  if (auto h = env("ASCEND_TOOLKIT_HOME"); !h.empty()) return h;
  std::error_code ec;
  return fs::canonical("/proc/self/exe", ec).parent_path().parent_path().parent_path().parent_path();
  (void)argv0;
}

// ---- npu-smi ----------------------------------------------------------------------------------------------
int npu_smi(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) != "info") {
    std::fprintf(stderr, "fake npu-smi: only `npu-smi info` is faked\n");
    return 1;
  }
  const std::string which = env("FAKE_NPU_SMI", "a2");
  if (which == "fail") {
    std::printf("dcmi model initialized failed, because the device is used. ret is -8020\n");
    return 255;
  }
  std::string text = slurp(fs::path(env("FAKE_ASCEND_DATA")) / ("npu_smi_" + which + ".txt"));
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}

// ---- bisheng ----------------------------------------------------------------------------------------------
// The kernel itself, built against the CPU twin's headers: its ICPU_RUN_KF launches run it block by block (as the
// twin's tikicpulib.h does) and tell the fake runtime (so the fake msprof) that it launched.
int build_on_twin(const std::string& src, const std::string& out, const std::vector<std::string>& includes,
                  const fs::path& home) {
  const fs::path wrap = fs::path(out).string() + ".twin.cpp";
  spit(wrap, "#include \"tikicpulib.h\"\n#include \"acl/acl.h\"\n#undef ICPU_RUN_KF\n"
             "#define ICPU_RUN_KF(func, blockdim, ...) do { fake_acl_record_launch(#func, (uint32_t)(blockdim)); "
             "AscendC::kope_fake_run_blocks((int64_t)(blockdim), [&] { func(__VA_ARGS__); }); } while (0)\n"
             "#include \"" + fs::absolute(src).string() + "\"\n");
  std::vector<std::string> cmd = {env("FAKE_CXX", "c++"), "-shared", "-fPIC", "-O1", "-std=c++17", "-DASCENDC_CPU_DEBUG",
                                  "-I" + (home / "tools/tikicpulib/lib/include").string()};
  cmd.insert(cmd.end(), includes.begin(), includes.end());
  cmd.insert(cmd.end(), {"-I" + (home / "include").string(), wrap.string(), "-L" + (home / "lib64").string(),
                         "-Wl,-rpath," + (home / "lib64").string(), "-lascendcl", "-o", out});
  int rc = run(cmd);
  fs::remove(wrap);
  return rc;
}

int bisheng(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  bool cce = false;
  std::string arch, out, src;
  std::vector<std::string> includes;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-xcce") cce = true;
    else if (a.rfind("--npu-arch=", 0) == 0) arch = a.substr(11);
    else if (a == "-o" && i + 1 < args.size()) out = args[++i];
    else if (a.rfind("-I", 0) == 0) includes.push_back(a);
    else if (a[0] != '-' && (a.size() > 4 && (a.substr(a.size() - 4) == ".cpp" || a.substr(a.size() - 3) == ".cc"))) src = a;
  }
  if (!cce) {  // host code: the system compiler does it
    std::vector<std::string> cmd = {env("FAKE_CXX", "c++")};
    cmd.insert(cmd.end(), args.begin(), args.end());
    return run(cmd);
  }
  if (arch.empty() || !std::regex_match(arch, std::regex("dav-[0-9]{4}"))) {
    std::fprintf(stderr, "bisheng: error: invalid or missing --npu-arch '%s'\n", arch.c_str());  // wording unverified
    return 1;
  }
  if (src.empty() || out.empty()) {
    std::fprintf(stderr, "bisheng: error: no input files\n");
    return 1;
  }
  std::string text = slurp(src);
  std::istringstream in(text);
  std::string line, file = src;
  int n = 0, offset = 0;
  std::smatch m;
  std::string entry;
  int errors = 0;
  while (std::getline(in, line)) {
    ++n;
    if (n == 1 && std::regex_match(line, m, std::regex(R"(#line 1 \"(.*)\")"))) {
      file = m[1];
      offset = 1;
      continue;
    }
    if (std::regex_search(line, m, std::regex(R"(__global__\s+__aicore__\s+void\s+([A-Za-z_]\w*)\s*\()")) && entry.empty())
      entry = m[1];
    auto col = line.find("DataCopyy");
    if (col != std::string::npos) {
      std::fprintf(stderr, "%s:%d:%zu: error: use of undeclared identifier 'DataCopyy'\n%s\n%s^~~~~~~~~\n", file.c_str(),
                   n - offset, col + 1, line.c_str(), std::string(col, ' ').c_str());
      ++errors;
    }
  }
  if (errors) {
    std::fprintf(stderr, "%d error%s generated.\n", errors, errors > 1 ? "s" : "");
    return 1;
  }
  // The stub: copies input 0 into every output (byte for byte, as far as both reach) and records its launch.
  // An operator project's kernel has no kope header on its include path: then the stub is an empty library.
  bool kope_header = false;
  for (const auto& inc : includes) kope_header |= fs::exists(fs::path(inc.substr(2)) / "kope_ascend.h");
  const fs::path stub = fs::path(out).string() + ".stub.cpp";
  const fs::path home = toolkit_home(argv[0]);
  if (kope_header && env("FAKE_BISHENG_TWIN") == "1" && fs::is_directory(home / "tools/tikicpulib/lib/include"))
    return build_on_twin(src, out, includes, home);
  if (!kope_header) {
    spit(stub, "extern \"C\" void " + (entry.empty() ? std::string("kernel") : entry) + "_stub(void) {}\n");
    int rc = run({env("FAKE_CXX", "c++"), "-shared", "-fPIC", stub.string(), "-o", out});
    fs::remove(stub);
    return rc;
  }
  spit(stub, "#include <string.h>\n#include \"kope_ascend.h\"\n#include \"acl/acl.h\"\n"
             "static size_t sz(int d) { return d == KOPE_F64 || d == KOPE_I64 ? 8 : d == KOPE_F16 || d == KOPE_BF16 ? 2 : d == KOPE_U8 ? 1 : 4; }\n"
             "extern \"C\" int kope_ascend_kernel(const kope_args* a, void* stream) {\n"
             "  (void)stream;\n  fake_acl_record_launch(\"" + entry + "\", 8);\n"
             "  for (int k = 0; k < a->n_outputs; ++k) {\n"
             "    size_t n = (size_t)a->outputs[k].numel * sz(a->outputs[k].dtype);\n"
             "    size_t m = (size_t)a->inputs[0].numel * sz(a->inputs[0].dtype);\n"
             "    memset(a->outputs[k].data, 0, n);\n    memcpy(a->outputs[k].data, a->inputs[0].data, n < m ? n : m);\n  }\n"
             "  return 0;\n}\n");
  std::vector<std::string> cmd = {env("FAKE_CXX", "c++"), "-shared", "-fPIC", "-O1"};
  cmd.insert(cmd.end(), includes.begin(), includes.end());
  cmd.insert(cmd.end(), {"-I" + (home / "include").string(), stub.string(), "-L" + (home / "lib64").string(),
                         "-Wl,-rpath," + (home / "lib64").string(), "-lascendcl", "-o", out});
  int rc = run(cmd);
  fs::remove(stub);
  return rc;
}

// ---- msprof op ----------------------------------------------------------------------------------------------
std::string stamp() {
  std::time_t t = std::time(nullptr) + std::atoi(env("FAKE_MSPROF_CLOCK_SHIFT", "0").c_str());
  char b[32];
  std::strftime(b, sizeof b, "%Y%m%d%H%M%S", std::gmtime(&t));
  return b;
}

std::string letters() {
  std::string s;
  unsigned x = static_cast<unsigned>(getpid()) * 2654435761u ^ static_cast<unsigned>(std::time(nullptr));
  for (int i = 0; i < 16; ++i) x = x * 1103515245u + 12345u, s += static_cast<char>('A' + (x >> 16) % 26);
  return s;
}

void write_results(const fs::path& dir, const std::string& op, int index, double us, const std::string& suffix) {
  fs::create_directories(dir);
  spit(dir / ("OpBasicInfo" + suffix + ".csv"),
       "Op Name,Op Type,Task Duration(us),Block Dim,Mix Block Dim,Device Id,Pid,Current Freq,Rated Freq,\n" + op + "_" +
           std::to_string(index) + ",vector," + [&] { char b[32]; std::snprintf(b, sizeof b, "%.6f", us); return std::string(b); }() +
           ",8,NA,0," + std::to_string(getpid()) + ",1800,1800,\n");
  // Counter tables: column names as in msprof op's docs (their exact sets are unverified).
  spit(dir / ("ArithmeticUtilization" + suffix + ".csv"),
       "block_id,sub_block_id,aiv_time(us),aiv_total_cycles,aiv_vec_ratio,aiv_vec_fp32_ratio,aiv_vec_fp16_ratio,\n"
       "0,vector0,12.5,22500,0.41,0.38,0,\n1,vector0,12.7,22860,0.40,0.37,0,\n");
  spit(dir / ("Memory" + suffix + ".csv"),
       "block_id,sub_block_id,aiv_time(us),aiv_gm_to_ub_bw(GB/s),aiv_ub_to_gm_bw(GB/s),aiv_main_mem_read_bw(GB/s),aiv_main_mem_write_bw(GB/s),\n"
       "0,vector0,12.5,101.2,99.8,101.2,99.8,\n");
  spit(dir / ("PipeUtilization" + suffix + ".csv"),
       "block_id,sub_block_id,aiv_time(us),aiv_vec_time(us),aiv_vec_ratio,aiv_mte2_time(us),aiv_mte2_ratio,aiv_mte3_time(us),aiv_mte3_ratio,\n"
       "0,vector0,12.5,5.1,0.41,9.9,0.79,8.1,0.65,\n");
  spit(dir / ("L2Cache" + suffix + ".csv"), "block_id,sub_block_id,aiv_write_cache_hit,aiv_write_cache_miss_allocate,aiv_r0_read_cache_hit,\n0,vector0,120,8,300,\n");
  spit(dir / ("visualize_data" + suffix + ".bin"), std::string(16, '\0'));
  fs::create_directories(dir / "dump");
}

int msprof(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) != "op") {
    std::fprintf(stderr, "fake msprof: only `msprof op` is faked\n");
    return 1;
  }
  std::string kernel, output = ".";
  int count = 1, warm = 5;
  int i = 2;
  for (; i < argc && std::strncmp(argv[i], "--", 2) == 0; ++i) {
    std::string a = argv[i];
    auto eq = a.find('=');
    std::string k = a.substr(0, eq), v = eq == std::string::npos ? "" : a.substr(eq + 1);
    if (k == "--kernel-name") kernel = v;
    else if (k == "--launch-count") count = std::atoi(v.c_str());
    else if (k == "--warm-up") warm = std::atoi(v.c_str());
    else if (k == "--output") output = v;
    else if (k == "--aic-metrics" || k == "--replay-mode") {
    } else {
      std::fprintf(stderr, "[ERROR] msprof op: invalid argument %s\n", a.c_str());  // wording unverified
      return 1;
    }
  }
  if (i >= argc) {
    std::fprintf(stderr, "[ERROR] msprof op: no application given\n");
    return 1;
  }
  if (count < 1 || count > 5000) {
    std::fprintf(stderr, "[ERROR] msprof op: --launch-count must be in [1, 5000]\n");
    return 1;
  }
  // FAKE_MSPROF_PROBE=PATH: says on stderr whether PATH (a file outside the toolkit and the job) can be read, so
  // tests can see the sandbox the worker runs in.
  if (const std::string probe = env("FAKE_MSPROF_PROBE"); !probe.empty())
    std::fprintf(stderr, "probe %s: %s\n", probe.c_str(), std::ifstream(probe).good() ? "readable" : "not readable");
  const fs::path log = fs::temp_directory_path() / ("fake-msprof-" + std::to_string(getpid()) + ".log");
  int rc = run(std::vector<std::string>(argv + i, argv + argc), {"FAKE_ASCEND_LAUNCH_LOG=" + log.string()});
  std::istringstream launches(slurp(log));
  fs::remove(log);
  std::vector<std::string> matched;
  std::string name, first;
  unsigned dim = 0;
  while (launches >> name >> dim) {
    if (first.empty()) first = name;
    if (kernel.empty() ? name == first : name.rfind(kernel, 0) == 0) matched.push_back(name);
  }
  if (rc != 0) std::fprintf(stderr, "[WARNING] the application exited with %d\n", rc);
  // msprof replays the warm-up launches before the counted ones; a launch that never came is not profiled.
  std::vector<std::string> counted;
  for (std::size_t k = static_cast<std::size_t>(warm); k < matched.size() && counted.size() < static_cast<std::size_t>(count); ++k)
    counted.push_back(matched[k]);
  if (counted.empty() && !matched.empty()) counted.push_back(matched.back());
  if (counted.empty()) {
    std::fprintf(stdout, "[WARNING] No kernel matched with kernel name \"%s\".\n", kernel.c_str());  // wording unverified
    return rc;
  }
  const std::string ts = stamp();
  fs::path root = fs::path(output) / ("OPPROF_" + ts + "_" + letters());
  if (!env("FAKE_MSPROF_DEVICE_LEVEL").empty()) root /= "device0";
  const double base_us = std::atof(env("FAKE_MSPROF_US", "155.740005").c_str());
  if (counted.size() == 1) write_results(root, counted[0], 0, base_us, "");
  else
    for (std::size_t k = 0; k < counted.size(); ++k)
      write_results(root / counted[k] / std::to_string(k), counted[k], static_cast<int>(k), base_us + 0.5 * k, "_" + ts);
  std::printf("[INFO] Profiling results are saved in %s\n", root.c_str());
  return rc;
}

// ---- msopgen ------------------------------------------------------------------------------------------------
int msopgen(int argc, char** argv) {
  std::string in, soc, lan, out;
  if (argc < 2 || std::string(argv[1]) != "gen") {
    std::fprintf(stderr, "fake msopgen: only `msopgen gen` is faked\n");
    return 1;
  }
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "-i") in = v;
    else if (k == "-c") soc = v;
    else if (k == "-lan") lan = v;
    else if (k == "-out") out = v;
  }
  if (in.empty() || out.empty() || soc.rfind("ai_core-", 0) != 0 || lan != "cpp") {
    std::fprintf(stderr, "[ERROR] msopgen gen: usage: -i op.json -c ai_core-<soc> -lan cpp -out DIR\n");
    return 1;
  }
  std::smatch m;
  std::string j = slurp(in);
  if (!std::regex_search(j, m, std::regex(R"("op"\s*:\s*"([A-Za-z0-9]+)\")"))) {
    std::fprintf(stderr, "[ERROR] %s: no \"op\" in the operator description\n", in.c_str());
    return 1;
  }
  std::string op = m[1], snake;
  for (std::size_t i = 0; i < op.size(); ++i) {
    if (std::isupper(static_cast<unsigned char>(op[i]))) {
      if (i) snake += '_';
      snake += static_cast<char>(std::tolower(static_cast<unsigned char>(op[i])));
    } else snake += op[i];
  }
  const fs::path dir = out;
  fs::create_directories(dir / "op_host");
  fs::create_directories(dir / "op_kernel");
  spit(dir / "CMakeLists.txt", "# fake msOpGen project for " + op + "\n");
  spit(dir / "CMakePresets.json", "{\"configurePresets\": [{\"name\": \"default\", \"binaryDir\": \"${sourceDir}/build_out\", "
                                  "\"cacheVariables\": {\"ASCEND_COMPUTE_UNIT\": {\"value\": \"" + soc.substr(8) + "\"}, "
                                  "\"vendor_name\": {\"value\": \"customize\"}}}]}\n");
  spit(dir / "op_host" / (snake + ".cpp"), "// generated host side of " + op + "\n");
  spit(dir / "op_host" / (snake + "_tiling.h"), "// generated tiling of " + op + "\n");
  spit(dir / "op_kernel" / (snake + ".cpp"), "// generated kernel skeleton of " + op + "\n");
  spit(dir / "build.sh",
       "#!/bin/bash\n# fake msOpGen build.sh: compiles op_kernel/ with bisheng as ascendc.cmake does\n"
       "cd \"$(dirname \"$0\")\"\nmkdir -p build_out\n"
       "if ! out=$(bisheng -fPIC -shared -xcce -O2 -std=c++17 --npu-arch=dav-2201 -I\"$ASCEND_TOOLKIT_HOME/include\" "
       "op_kernel/" + snake + ".cpp -o build_out/" + snake + ".so 2>&1); then\n"
       "  echo \"[ERROR] Function AscendcCompiler: Command excution failed\"\n"
       "  echo \"Output of ascend_compiler: $out\"\n"
       "  echo \"gmake[2]: *** [op_kernel/CMakeFiles/ascendc_kernels.dir/build.make:76] Error 1\"\n  exit 1\nfi\n"
       "cat > build_out/custom_opp_ubuntu_x86_64.run <<'RUN'\n#!/bin/bash\n"
       "for a in \"$@\"; do case $a in --install-path=*) dest=${a#--install-path=};; esac; done\n"
       "[ -n \"$dest\" ] || { echo \"[ERROR] no --install-path\"; exit 1; }\n"
       "mkdir -p \"$dest/vendors/customize/op_api/lib\" \"$dest/vendors/customize/op_impl\"\n"
       ": > \"$dest/vendors/customize/op_api/lib/libcust_opapi.so\"\n"
       "echo \"SUCCESS\"\nRUN\nchmod +x build_out/custom_opp_ubuntu_x86_64.run\necho \"[SUCCESS] build completed\"\n");
  chmod((dir / "build.sh").c_str(), 0755);
  std::printf("[INFO] Generation of %s is successful.\n", dir.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string self = fs::path(argv[0]).filename().string();
  if (self == "npu-smi") return npu_smi(argc, argv);
  if (self == "bisheng") return bisheng(argc, argv);
  if (self == "msprof") return msprof(argc, argv);
  if (self == "msopgen") return msopgen(argc, argv);
  std::fprintf(stderr, "fake_ascend: run me as npu-smi, bisheng, msprof or msopgen (got %s)\n", self.c_str());
  return 2;
}
