// find: starting points are read paths; actions that run programs or write files are refused.
import { refuseOption, type Danger } from '../options.js';
import type { ArgRule, ArgVerdict } from './types.js';

const DENIED: Readonly<Record<string, Danger>> = {
  '-exec': 'exec', '-execdir': 'exec', '-ok': 'exec', '-okdir': 'exec',
  '-delete': 'write', '-fprint': 'write', '-fprint0': 'write', '-fprintf': 'write', '-fls': 'write',
};

/** Index of the first expression token after the leading -H/-L/-P/-D/-O options and the starting points. */
export function findLayout(args: readonly string[]): { starts: string[]; expr: number } {
  let i = 0;
  while (i < args.length) {
    const a = args[i]!;
    if (a === '-H' || a === '-L' || a === '-P' || (a.startsWith('-O') && a.length > 2)) i++;
    else if (a === '-D') i += 2;
    else if (a === '--') { i++; break; }
    else break;
  }
  const starts: string[] = [];
  while (i < args.length && !isExpression(args[i]!)) starts.push(args[i++]!);
  return { starts, expr: i };
}

function isExpression(a: string): boolean {
  return (a.length > 1 && a.charCodeAt(0) === 45) || a === '(' || a === ')' || a === '!' || a === ',';
}

/** Read-only policy for find. */
export const findRule: ArgRule = ({ cmd, args }): ArgVerdict => {
  const { starts, expr } = findLayout(args);
  const reads = starts.length > 0 ? starts : ['.'];
  for (let i = expr; i < args.length; i++) {
    const a = args[i]!;
    const danger = DENIED[a];
    if (danger) refuseOption(cmd, a, danger);
    if (a === '-files0-from' && i + 1 < args.length) reads.push(args[++i]!);
  }
  return { reads };
};

/** True when a find expression deletes or writes (used by the write policy). */
export function findWrites(args: readonly string[]): boolean {
  return args.includes('-delete') || args.some((a) => a.startsWith('-fprint') || a === '-fls');
}
