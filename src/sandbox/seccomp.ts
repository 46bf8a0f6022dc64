/**
 * A small seccomp filter handed to bubblewrap (`--seccomp FD`). It closes two ways around the
 * per-process memory limit (RLIMIT_AS): SysV shared memory (`shmget`: a detached segment stays
 * alive, uncounted, in the run's IPC namespace) and `memfd_create` (anonymous files written with
 * `write()` are never mapped, so never counted). Programs get EPERM. It also refuses the x32 ABI
 * and any non-x86_64 syscall ABI (e.g. `int 0x80`), whose numbers would slip past the checks.
 *
 * Format: an array of `struct sock_filter { u16 code; u8 jt; u8 jf; u32 k; }`, little-endian
 * (linux/filter.h, linux/seccomp.h; https://www.kernel.org/doc/html/latest/userspace-api/seccomp_filter.html).
 */

const LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGE_K = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RET_K = 0x06; // BPF_RET | BPF_K

const AUDIT_ARCH_X86_64 = 0xc000003e;
const X32_SYSCALL_BIT = 0x40000000;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO_EPERM = 0x00050000 | 1;

/** x86_64 syscall numbers refused (arch/x86/entry/syscalls/syscall_64.tbl). */
export const REFUSED_SYSCALLS_X86_64 = { shmget: 29, memfd_create: 319 } as const;

/** The filter for this machine, or null where it is not written for the architecture (only x86_64). */
export function seccompFilter(arch: string = process.arch): Buffer | null {
  if (arch !== 'x64') return null;
  const { shmget, memfd_create } = REFUSED_SYSCALLS_X86_64;
  // [code, jt, jf, k]; jumps count instructions after the next one
  const program: [number, number, number, number][] = [
    [LD_W_ABS, 0, 0, 4], // 0: A = seccomp_data.arch
    [JEQ_K, 1, 0, AUDIT_ARCH_X86_64], // 1: x86_64 → 3
    [RET_K, 0, 0, SECCOMP_RET_ERRNO_EPERM], // 2: any other ABI: refuse
    [LD_W_ABS, 0, 0, 0], // 3: A = seccomp_data.nr
    [JGE_K, 3, 0, X32_SYSCALL_BIT], // 4: x32 ABI → 8
    [JEQ_K, 2, 0, shmget], // 5: → 8
    [JEQ_K, 1, 0, memfd_create], // 6: → 8
    [RET_K, 0, 0, SECCOMP_RET_ALLOW], // 7
    [RET_K, 0, 0, SECCOMP_RET_ERRNO_EPERM], // 8
  ];
  const buf = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], i) => {
    buf.writeUInt16LE(code, i * 8);
    buf.writeUInt8(jt, i * 8 + 2);
    buf.writeUInt8(jf, i * 8 + 3);
    buf.writeUInt32LE(k, i * 8 + 4);
  });
  return buf;
}
