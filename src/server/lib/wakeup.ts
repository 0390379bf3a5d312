/**
 * A background loop's doorbell: the loop waits up to its poll interval, and a request that gave it work
 * (a delivery released) rings so that the work starts now. Several rings while the loop is busy make one
 * more round, not one each.
 */
export class Wakeup {
  private pending = false;
  private waiter: (() => void) | null = null;

  kick(): void {
    this.pending = true;
    const w = this.waiter;
    this.waiter = null;
    w?.();
  }

  /** Resolves at the next kick (at once if one came since the last wait) or after `ms`. */
  wait(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        resolve();
      }, ms);
      timer.unref();
      this.waiter = () => {
        clearTimeout(timer);
        this.pending = false;
        resolve();
      };
    });
  }
}
