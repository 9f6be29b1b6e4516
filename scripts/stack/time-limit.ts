// Shared by the stack's test phases and scripts/faults.mjs (which imports this file as it is).
import { execFileSync, type ChildProcess } from 'node:child_process';

/** `pid` and every process under it, children before parents. */
function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map(Number)
      .filter(Boolean);
  } catch {
    // ps exits 1 when there are none
  }
  return [...children.flatMap(processTree), pid];
}

/**
 * Bounds a step that must finish (a test phase): past `limitMs`, the child and everything it
 * started are killed, so a test that never ends costs minutes, not the whole CI budget. Returns
 * whether the limit was hit, for the step's error message.
 */
export function limitRunTime(child: ChildProcess, limitMs: number | undefined, onLimit: () => void): () => boolean {
  let hit = false;
  if (!limitMs) return () => hit;
  const timer = setTimeout(() => {
    hit = true;
    onLimit();
    for (const pid of child.pid === undefined ? [] : processTree(child.pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }, limitMs);
  child.on('exit', () => clearTimeout(timer));
  return () => hit;
}
