// A stand-in for libascendcl: device memory is host memory; FAKE_ACL_ERROR=<code> makes the next
// aclrtSynchronizeStream fail with that aclError and aclGetRecentErrMsg return CANN's inner-error text for it;
// FAKE_ASCEND_LAUNCH_LOG names a file where each kernel launch is appended (read by the fake msprof).
#include "acl/acl.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {
std::string g_msg;
}

extern "C" {

aclError aclInit(const char*) { return ACL_SUCCESS; }
aclError aclFinalize(void) { return ACL_SUCCESS; }
aclError aclrtSetDevice(int32_t id) { return id == 0 || id == 1 ? ACL_SUCCESS : 107001; }
aclError aclrtResetDevice(int32_t) { return ACL_SUCCESS; }
aclError aclrtCreateContext(aclrtContext* c, int32_t) { *c = reinterpret_cast<void*>(1); return ACL_SUCCESS; }
aclError aclrtDestroyContext(aclrtContext) { return ACL_SUCCESS; }
aclError aclrtCreateStream(aclrtStream* s) { *s = reinterpret_cast<void*>(2); return ACL_SUCCESS; }
aclError aclrtDestroyStream(aclrtStream) { return ACL_SUCCESS; }

aclError aclrtSynchronizeStream(aclrtStream) {
  const char* e = std::getenv("FAKE_ACL_ERROR");
  if (!e || !*e) return ACL_SUCCESS;
  const int code = std::atoi(e);
  if (code == 507015)
    g_msg = "EZ9999: Inner Error!\n"
            "EZ9999: [PID: 4242] 2026-12-02-17:20:01.123.456 The error from device(chipId:0, dieId:0), serial number is 7, "
            "there is an exception of fftsplus aicore error, core id is 12, error code = 0x800000, dump info: "
            "pc start: 0x1240c0000000, current: 0x1240c0000a3c, vec error info: 0x1a00003c, mte error info: 0x3000000d2, "
            "ifu error info: 0x2000000000000, ccu error info: 0x0, cube error info: 0, biu error info: 0, "
            "aic error mask: 0x65000200d000288, para base: 0x12c100400000.[FUNC:ProcessStarsCoreErrorInfo]"
            "[FILE:device_error_core_proc.cc][LINE:293]\n"
            "        TraceBack (most recent call last):\n"
            "        rtStreamSynchronize execute failed, reason=[aicore exception][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n"
            "        synchronize stream failed, runtime result = 507015[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]\n";
  else
    g_msg = "EZ9999: Inner Error!\nEZ9999: [PID: 4242] runtime result = " + std::to_string(code) + "\n";
  return code;
}

aclError aclrtMalloc(void** p, size_t n, aclrtMemMallocPolicy) {
  if (const char* oom = std::getenv("FAKE_ACL_OOM"); oom && *oom) return 207001;
  *p = std::malloc(n ? n : 1);
  return *p ? ACL_SUCCESS : 207001;
}
aclError aclrtFree(void* p) { std::free(p); return ACL_SUCCESS; }
aclError aclrtMemcpy(void* dst, size_t max, const void* src, size_t n, aclrtMemcpyKind) {
  if (n > max) return 107000;
  std::memcpy(dst, src, n);
  return ACL_SUCCESS;
}
aclError aclrtMemset(void* dst, size_t max, int32_t value, size_t n) {
  if (n > max) return 107000;
  std::memset(dst, value, n);
  return ACL_SUCCESS;
}
const char* aclGetRecentErrMsg(void) { return g_msg.empty() ? nullptr : g_msg.c_str(); }

void fake_acl_record_launch(const char* name, uint32_t block_dim) {
  const char* log = std::getenv("FAKE_ASCEND_LAUNCH_LOG");
  if (!log || !*log) return;
  if (FILE* f = std::fopen(log, "a")) {
    std::fprintf(f, "%s %u\n", name, block_dim);
    std::fclose(f);
  }
}

}  // extern "C"
