// CPU time of process trees, read from Linux's /proc, for benchmarks that must say where the cores went
// (bench:scale: how much of a worker's time is OCR, how much the API, PostgreSQL and s3rver take).
//
// A tree's CPU time is the sum, over its live processes, of their own time (utime + stime) and of the
// time of the children they have already waited for (cutime + cstime): a finished tesseract process's
// time moves into its parent's children-time when the parent reaps it, so nothing is counted twice or
// lost between two snapshots. Processes that leave the tree alive (daemons) are not followed.
// Off Linux every figure is null.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  /** utime + stime, in clock ticks. */
  own: number;
  /** cutime + cstime, in clock ticks: the reaped children's time. */
  children: number;
}

let ticksPerSecond: number | undefined;
const clockTicks = (): number => (ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100);

function readStat(pid: number): ProcStat | null {
  let line: string;
  try {
    line = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null; // gone in between
  }
  // "pid (comm) state ppid ... utime stime cutime cstime ...": comm may hold spaces and parentheses.
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  const rest = line.slice(close + 2).split(' ');
  return { pid, comm: line.slice(open + 1, close), ppid: Number(rest[1]), own: Number(rest[11]) + Number(rest[12]), children: Number(rest[13]) + Number(rest[14]) };
}

/** Every live process now. */
function allProcesses(): ProcStat[] {
  if (process.platform !== 'linux') return [];
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((s): s is ProcStat => s !== null);
}

/** The processes of the tree under `root` (itself included). */
function treeOf(root: number, all: ProcStat[]): ProcStat[] {
  const byPid = new Map(all.map((p) => [p.pid, p]));
  const children = new Map<number, ProcStat[]>();
  for (const p of all) {
    const siblings = children.get(p.ppid);
    if (siblings) siblings.push(p);
    else children.set(p.ppid, [p]);
  }
  const out: ProcStat[] = [];
  const walk = (p: ProcStat | undefined) => {
    if (!p) return;
    out.push(p);
    for (const child of children.get(p.pid) ?? []) walk(child);
  };
  walk(byPid.get(root));
  return out;
}

/**
 * CPU seconds used so far by each named group of process trees. `split` (optional) names a part of a
 * group by command name: its processes' whole time and the children-time of the group's other processes
 * (the reaped ones of that command) go to the part, e.g. a worker's tesseract processes.
 */
export function cpuSeconds(groups: Record<string, number[]>, split?: { group: string; part: string; comm: string }): Record<string, number> | null {
  if (process.platform !== 'linux') return null;
  const all = allProcesses();
  const hz = clockTicks();
  const out: Record<string, number> = {};
  for (const [name, roots] of Object.entries(groups)) {
    const procs = roots.flatMap((r) => treeOf(r, all));
    if (split && split.group === name) {
      const part = procs.filter((p) => p.comm === split.comm);
      const rest = procs.filter((p) => p.comm !== split.comm);
      out[split.part] = (part.reduce((s, p) => s + p.own + p.children, 0) + rest.reduce((s, p) => s + p.children, 0)) / hz;
      out[name] = rest.reduce((s, p) => s + p.own, 0) / hz;
    } else {
      out[name] = procs.reduce((s, p) => s + p.own + p.children, 0) / hz;
    }
  }
  return out;
}

/** CPU seconds the whole machine spent busy (not idle or waiting for I/O) so far, from /proc/stat. */
export function machineBusySeconds(): number | null {
  if (process.platform !== 'linux') return null;
  // "cpu user nice system idle iowait irq softirq steal guest guest_nice": guest time is inside user already.
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const busy = cpu.reduce((s, v, i) => (i === 3 || i === 4 ? s : s + v), 0);
  return busy / clockTicks();
}

/** The difference of two cpuSeconds snapshots, group by group. */
export function cpuDelta(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - (before[k] ?? 0)]));
}

/** The parent of a live process (a PostgreSQL backend's parent is the server's postmaster), or null. */
export function parentPid(pid: number): number | null {
  return readStat(pid)?.ppid ?? null;
}
