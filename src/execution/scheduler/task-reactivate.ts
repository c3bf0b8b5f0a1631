// task_resume and task_confirm make an ended task active again (failed → running, completed dry run →
// pending): they count against scheduler.max_active_tasks like task_create, in the same transaction.
import type { TaskStore } from './env.js';
import { checkActiveRoom, checkParametersSize } from './task-totals.js';
import type { TaskRecord } from './types.js';

/** Runs `change` (resume or confirm) after the totals allow it: room for one more active task, replacement parameters within bounds. */
export function reactivate(store: TaskStore, id: string, change: () => TaskRecord, parameters?: Record<string, unknown>): TaskRecord {
  if (parameters) checkParametersSize(store, [parameters], 'the replacement parameters are');
  return store.tasks.atomic(() => {
    const t = store.tasks.get(id);
    // A paused task is already counted; an unknown id or a wrong status is left to `change` to report.
    if (t && (t.status === 'failed' || (t.status === 'completed' && t.dryRun))) checkActiveRoom(store);
    return change();
  });
}
