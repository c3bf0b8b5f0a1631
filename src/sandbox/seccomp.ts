// A classic-BPF seccomp program, built here (no native dependency) and handed to bubblewrap
// with `--seccomp FD`. bwrap installs it just before it execs the command, so bwrap's own
// namespace setup is unaffected. Denied calls fail with EPERM; everything else is allowed.

/** Syscalls no confined command needs: kernel attack surface, namespace/mount escapes, tracing. */
const DENIED = [
  'ptrace', 'mount', 'umount2', 'unshare', 'setns', 'bpf', 'keyctl', 'add_key', 'request_key',
  'io_uring_setup', 'io_uring_enter', 'io_uring_register', 'perf_event_open', 'kexec_load',
  'kexec_file_load', 'init_module', 'finit_module', 'delete_module', 'pivot_root', 'swapon',
  'swapoff', 'reboot', 'process_vm_readv', 'process_vm_writev', 'open_by_handle_at', 'userfaultfd',
  'acct', 'open_tree', 'move_mount', 'fsopen', 'fsconfig', 'fsmount', 'mount_setattr',
] as const;

type Name = (typeof DENIED)[number] | 'clone' | 'clone3';

interface ArchTable {
  audit: number;
  nr: Record<Name, number>;
  /** x86_64 also accepts x32 syscalls (nr | 0x40000000), which must not bypass the list. */
  x32Bit: boolean;
}

/** Syscall numbers per architecture (x86_64: arch/x86/entry/syscalls; aarch64: asm-generic/unistd.h). */
export const ARCHES: Partial<Record<NodeJS.Architecture, ArchTable>> = {
  x64: {
    audit: 0xc000003e,
    x32Bit: true,
    nr: {
      ptrace: 101, mount: 165, umount2: 166, unshare: 272, setns: 308, bpf: 321, keyctl: 250, add_key: 248,
      request_key: 249, io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427, perf_event_open: 298,
      kexec_load: 246, kexec_file_load: 320, init_module: 175, finit_module: 313, delete_module: 176,
      pivot_root: 155, swapon: 167, swapoff: 168, reboot: 169, process_vm_readv: 310, process_vm_writev: 311,
      open_by_handle_at: 304, userfaultfd: 323, acct: 163, open_tree: 428, move_mount: 429, fsopen: 430,
      fsconfig: 431, fsmount: 432, mount_setattr: 442, clone: 56, clone3: 435,
    },
  },
  arm64: {
    audit: 0xc00000b7,
    x32Bit: false,
    nr: {
      ptrace: 117, mount: 40, umount2: 39, unshare: 97, setns: 268, bpf: 280, keyctl: 219, add_key: 217,
      request_key: 218, io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427, perf_event_open: 241,
      kexec_load: 104, kexec_file_load: 294, init_module: 105, finit_module: 273, delete_module: 106,
      pivot_root: 41, swapon: 224, swapoff: 225, reboot: 142, process_vm_readv: 270, process_vm_writev: 271,
      open_by_handle_at: 265, userfaultfd: 282, acct: 89, open_tree: 428, move_mount: 429, fsopen: 430,
      fsconfig: 431, fsmount: 432, mount_setattr: 442, clone: 220, clone3: 435,
    },
  },
};

const LD_W_ABS = 0x20;
const JEQ = 0x15;
const JGE = 0x35;
const JSET = 0x45;
const RET = 0x06;
const ALLOW = 0x7fff0000;
const ERRNO = 0x00050000;
const KILL_PROCESS = 0x80000000;
const EPERM = 1;
const ENOSYS = 38;
/** CLONE_NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET: clone() may not create namespaces. */
const CLONE_NS_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000;

type Insn = { code: number; k: number; jt?: string; jf?: string } | { label: string };

/** The BPF program for this architecture, or undefined where we have no syscall table. */
export function seccompProgram(arch: NodeJS.Architecture = process.arch): Buffer | undefined {
  const t = ARCHES[arch];
  if (!t) return undefined;
  const p: Insn[] = [
    // A syscall of another ABI (i386 on x86_64) would be checked against the wrong numbers: kill it.
    { code: LD_W_ABS, k: 4 },
    { code: JEQ, k: t.audit, jf: 'kill' },
    { code: LD_W_ABS, k: 0 },
    ...(t.x32Bit ? [{ code: JGE, k: 0x40000000, jt: 'eperm' }] : []),
    ...DENIED.map((n) => ({ code: JEQ, k: t.nr[n], jt: 'eperm' })),
    // clone3 passes its flags in memory BPF cannot read: ENOSYS makes libc fall back to clone.
    { code: JEQ, k: t.nr.clone3, jt: 'enosys' },
    { code: JEQ, k: t.nr.clone, jf: 'allow' },
    { code: LD_W_ABS, k: 16 }, // low 32 bits of args[0] (little-endian on both arches)
    { code: JSET, k: CLONE_NS_FLAGS, jt: 'eperm' },
    { label: 'allow' }, { code: RET, k: ALLOW },
    { label: 'eperm' }, { code: RET, k: ERRNO | EPERM },
    { label: 'enosys' }, { code: RET, k: ERRNO | ENOSYS },
    { label: 'kill' }, { code: RET, k: KILL_PROCESS },
  ];
  return assemble(p);
}

/** Resolves labels into relative jump offsets and encodes `struct sock_filter` (8 bytes each). */
function assemble(p: Insn[]): Buffer {
  const at = new Map<string, number>();
  const code: Array<Exclude<Insn, { label: string }>> = [];
  for (const i of p) {
    if ('label' in i) at.set(i.label, code.length);
    else code.push(i);
  }
  const buf = Buffer.alloc(code.length * 8);
  code.forEach((i, idx) => {
    const rel = (l?: string) => (l === undefined ? 0 : at.get(l)! - idx - 1);
    buf.writeUInt16LE(i.code, idx * 8);
    buf.writeUInt8(rel(i.jt), idx * 8 + 2);
    buf.writeUInt8(rel(i.jf), idx * 8 + 3);
    buf.writeUInt32LE(i.k >>> 0, idx * 8 + 4);
  });
  return buf;
}
