/**
 * Fixed-window counters for limits the app enforces itself (failed sign-ins). In memory for one instance;
 * in Redis when REDIS_URL is set, so that several instances share them.
 */
import type { Redis } from 'ioredis';

export interface CounterState {
  count: number;
  /** milliseconds until the window ends (0 when there is no count) */
  ttlMs: number;
}

export interface CounterStore {
  /** Adds `by` (one by default); the window starts at the first hit and lasts `windowMs`. */
  hit(key: string, windowMs: number, by?: number): Promise<CounterState>;
  get(key: string): Promise<CounterState>;
  /** Takes one back (never below zero, window unchanged): an attempt counted up front that turned out fine. */
  undo(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

export class MemoryCounterStore implements CounterStore {
  private readonly entries = new Map<string, { count: number; endsAt: number }>();
  private sweeps = 0;

  async hit(key: string, windowMs: number, by = 1): Promise<CounterState> {
    const now = Date.now();
    // An attacker spraying keys must not grow the map without bound: expired entries go every so often.
    if (++this.sweeps % 1000 === 0) this.sweep(now);
    let e = this.entries.get(key);
    if (!e || e.endsAt <= now) {
      e = { count: 0, endsAt: now + windowMs };
      this.entries.set(key, e);
    }
    e.count += by;
    return { count: e.count, ttlMs: e.endsAt - now };
  }

  async get(key: string): Promise<CounterState> {
    const now = Date.now();
    const e = this.entries.get(key);
    if (!e || e.endsAt <= now) return { count: 0, ttlMs: 0 };
    return { count: e.count, ttlMs: e.endsAt - now };
  }

  async undo(key: string): Promise<void> {
    const e = this.entries.get(key);
    if (e && e.count > 0) e.count -= 1;
  }

  async reset(key: string): Promise<void> {
    this.entries.delete(key);
  }

  private sweep(now: number): void {
    for (const [k, e] of this.entries) if (e.endsAt <= now) this.entries.delete(k);
  }
}

// INCRBY and set the expiry on the first hit in one step, so that a crash between them cannot leave a
// counter that never expires (which would lock an account out indefinitely).
const HIT_SCRIPT = `
local n = redis.call('INCRBY', KEYS[1], ARGV[2])
if n == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`;

// DECR only an existing counter that is above zero, so an undo never creates a key without expiry.
const UNDO_SCRIPT = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

export class RedisCounterStore implements CounterStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'trc-counter:',
  ) {}

  async hit(key: string, windowMs: number, by = 1): Promise<CounterState> {
    const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, String(windowMs), String(by))) as [number, number];
    return { count, ttlMs: Math.max(0, ttl) };
  }

  async get(key: string): Promise<CounterState> {
    const [raw, ttl] = await this.redis
      .multi()
      .get(this.prefix + key)
      .pttl(this.prefix + key)
      .exec()
      .then((r) => (r ?? []).map(([, v]) => v) as [string | null, number]);
    if (raw === null || ttl <= 0) return { count: 0, ttlMs: 0 };
    return { count: Number(raw), ttlMs: ttl };
  }

  async undo(key: string): Promise<void> {
    await this.redis.eval(UNDO_SCRIPT, 1, this.prefix + key);
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}

export function createCounterStore(redis?: Redis): CounterStore {
  return redis ? new RedisCounterStore(redis) : new MemoryCounterStore();
}
