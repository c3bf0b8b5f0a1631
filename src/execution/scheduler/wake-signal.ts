// A sleep that ends early when someone calls wake().

/** Sleeps up to ms, or until wake() is called. */
export function createWakeSignal() {
  let wakeUp: (() => void) | undefined;
  let pending = false;
  return {
    wake(): void {
      pending = true;
      wakeUp?.();
    },
    async sleep(ms: number): Promise<void> {
      if (pending) return void (pending = false);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        timer.unref();
        function done() {
          clearTimeout(timer);
          wakeUp = undefined;
          resolve();
        }
        wakeUp = done;
      });
      pending = false;
    },
  };
}
