// The dry run's plan, pinned for task_confirm (SPEC §3.4: the dry-run plan is what a person approves
// before task_confirm runs it). A dry run records, for each step, every context value its parameters
// were resolved with (a hash and a preview). The confirmed run compares the values it resolves with
// them: a step whose values changed would run something the dry run did not show. Values the dry run
// did not know (placeholders, saved by a step that did not run) are not pinned: the step meets the
// policy with the real value, as the dry-run view said.
import { createHash } from 'node:crypto';
import { lookupPath, REF_SOURCE, refValue, type ResolveOptions } from './context-refs.js';
import type { ResolvedCommand } from './command-template.js';
import type { PinnedRef, StepPlan, TaskContext } from './types.js';

const PREVIEW_CHARS = 200;

/** One pinned value that differs now: its reference, the value the dry run showed and the value now. */
export interface PlanChange {
  reference: string;
  shown: string;
  now: string;
}

/** The plan of a dry-run step resolved against `ctx` with `opts` (the same inputs the dry run used). */
export function pinPlan(params: Record<string, unknown>, ctx: TaskContext, opts: ResolveOptions, read: boolean, shown: string): StepPlan {
  const refs: PinnedRef[] = [];
  for (const ref of refsIn(params, new Set())) {
    const r = refValue(ref, ctx, opts, '');
    if (r.known) refs.push({ reference: `{{context.${ref}}}`, sha256: digest(r.value), preview: previewValue(r.value) });
  }
  return { read, refs, shown };
}

/** The pinned values that now differ in `ctx` (empty: the step resolves exactly as the dry run showed). */
export function planChanges(plan: StepPlan, ctx: TaskContext): PlanChange[] {
  const changes: PlanChange[] = [];
  for (const pin of plan.refs) {
    const now = lookupPath(ctx, pin.reference.slice('{{context.'.length, -'}}'.length));
    if (now !== undefined && digest(now) === pin.sha256) continue;
    changes.push({ reference: pin.reference, shown: pin.preview, now: now === undefined ? '(not in the context)' : previewValue(now) });
  }
  return changes;
}

/** What a step shows: the argvs of its command when it has one, else its parameters (without the context). */
export function shownOf(args: Record<string, unknown>, command: ResolvedCommand | undefined): string {
  const { context: _ctx, ...params } = args;
  return preview(JSON.stringify(command ? command.stages : params) ?? 'null');
}

/** Every reference path in the string values of `value` (keys are not resolved, so not scanned). */
function refsIn(value: unknown, out: Set<string>): Set<string> {
  if (typeof value === 'string') for (const m of value.matchAll(new RegExp(REF_SOURCE, 'g'))) out.add(m[1]!);
  else if (Array.isArray(value)) value.forEach((v) => refsIn(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => refsIn(v, out));
  return out;
}

function previewValue(v: unknown): string {
  return preview(JSON.stringify(v) ?? 'null');
}

/** At most PREVIEW_CHARS characters, saying how many more there were. */
function preview(text: string): string {
  const chars = [...text];
  return chars.length <= PREVIEW_CHARS ? text : `${chars.slice(0, PREVIEW_CHARS).join('')}… (${chars.length - PREVIEW_CHARS} more characters)`;
}

function digest(v: unknown): string {
  return createHash('sha256').update(canonical(v)).digest('hex');
}

/** JSON with object keys sorted, so equal values hash alike whatever order their keys were stored in. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
