// In-flight tools/call requests by JSON-RPC id, so a later notifications/cancelled can abort one.
type Json = Record<string, unknown>;

/**
 * Stateless HTTP has no session to scope ids, and every client shares one token: an id that
 * several in-flight calls use is ambiguous, and an ambiguous cancel is ignored rather than
 * risk stopping someone else's call.
 */
export class InflightCalls {
  private readonly calls = new Map<string, Set<AbortController>>();

  /** Registers the controller for a tools/call request; returns the release function. */
  track(scope: string, msg: unknown, ac: AbortController): () => void {
    const m = msg as Json | null;
    if (!m || m.method !== 'tools/call' || (typeof m.id !== 'string' && typeof m.id !== 'number')) return () => {};
    const key = `${scope}\u0000${String(m.id)}`;
    const set = this.calls.get(key) ?? new Set();
    set.add(ac);
    this.calls.set(key, set);
    return () => {
      set.delete(ac);
      if (set.size === 0) this.calls.delete(key);
    };
  }

  /** Aborts the single call named by a notifications/cancelled message, if unambiguous. */
  cancelFrom(scope: string, msg: unknown): boolean {
    const m = msg as Json | null;
    if (!m || m.method !== 'notifications/cancelled') return false;
    const id = (m.params as Json | undefined)?.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return false;
    const set = this.calls.get(`${scope}\u0000${String(id)}`);
    if (!set || set.size !== 1) return false;
    for (const ac of set) ac.abort(new Error('cancelled by the client'));
    return true;
  }
}
