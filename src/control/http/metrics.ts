// Prometheus metrics for one app: a private Registry fed by the invoke hook and read from the gates.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { App } from '../app.js';
import { callObservers, type CallEvent } from '../invoke.js';

const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'timed_out', 'lost'] as const;

/** The metrics of one app; `render()` gives the Prometheus text exposition. */
export interface ControlMetrics {
  contentType: string;
  render(): Promise<string>;
}

/** Creates the per-app registry and subscribes it to finished tool calls. */
export function createControlMetrics(app: App): ControlMetrics {
  const registry = new Registry();
  const calls = new Counter({ name: 'workbench_tool_calls_total', help: 'Tool calls by tool and outcome', labelNames: ['tool', 'outcome'], registers: [registry] });
  const errors = new Counter({ name: 'workbench_tool_errors_total', help: 'Failed or refused tool calls by error class', labelNames: ['tool', 'error_class'], registers: [registry] });
  const duration = new Histogram({
    name: 'workbench_tool_duration_seconds',
    help: 'Tool call duration including the wait for a gate slot',
    labelNames: ['tool', 'lane'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  callObservers(app.deps).push((e: CallEvent) => {
    calls.inc({ tool: e.tool, outcome: e.outcome });
    if (e.errorClass) errors.inc({ tool: e.tool, error_class: e.errorClass });
    duration.observe({ tool: e.tool, lane: e.lane }, e.durationMs / 1000);
  });
  registerGateGauges(app, registry);
  registerJobGauge(app, registry);
  return { contentType: registry.contentType, render: () => registry.metrics() };
}

function registerGateGauges(app: App, registry: Registry): void {
  const lanes = Object.entries(app.gates) as Array<[string, App['gates']['main']]>;
  new Gauge({
    name: 'workbench_inflight_calls',
    help: 'Tool calls running now, per lane',
    labelNames: ['lane'],
    registers: [registry],
    collect() {
      for (const [lane, gate] of lanes) this.set({ lane }, gate.inflight);
    },
  });
  new Gauge({
    name: 'workbench_queued_calls',
    help: 'Tool calls waiting for a slot, per lane',
    labelNames: ['lane'],
    registers: [registry],
    collect() {
      for (const [lane, gate] of lanes) this.set({ lane }, gate.queued);
    },
  });
}

function registerJobGauge(app: App, registry: Registry): void {
  new Gauge({
    name: 'workbench_jobs',
    help: 'Durable jobs by status (absent when the jobs table does not exist)',
    labelNames: ['status'],
    registers: [registry],
    collect() {
      const counts = jobCounts(app);
      if (!counts) return;
      for (const status of JOB_STATUSES) this.set({ status }, counts.get(status) ?? 0);
    },
  });
}

/** Jobs per status, or undefined when the store or the jobs table is not there. */
function jobCounts(app: App): Map<string, number> | undefined {
  try {
    const rows = app.deps.store().db.prepare('SELECT status, count(*) AS n FROM jobs GROUP BY status').all() as Array<{ status: string; n: number }>;
    return new Map(rows.map((r) => [r.status, r.n]));
  } catch {
    return undefined;
  }
}
