// How much a piece of work takes from the main thread's event loop: the longest a timer was held up
// (monitorEventLoopDelay), the longest the loop was busy at a stretch, and the share of the time it was busy
// rather than waiting for events (event-loop utilization). For the pipeline's event-loop test and benchmark.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

export interface LoopUse<T> {
  result: T;
  ms: number;
  /** The longest any timer waited past its time, in ms. On a loaded machine this includes the time the
   * thread waited for a CPU, busy or not. */
  maxDelayMs: number;
  /** The most busy time between two ticks of a 5 ms timer, in ms: the longest the loop was held by work on
   * this thread (a descheduled idle thread counts as idle, unlike in maxDelayMs). */
  longestBusyMs: number;
  /** Busy share of the time, 0 to 1. */
  utilization: number;
}

export async function measureEventLoop<T>(work: () => Promise<T>): Promise<LoopUse<T>> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const before = performance.eventLoopUtilization();
  let lastTick = before;
  let longestBusyMs = 0;
  const tick = () => {
    const now = performance.eventLoopUtilization();
    longestBusyMs = Math.max(longestBusyMs, performance.eventLoopUtilization(now, lastTick).active);
    lastTick = now;
  };
  const ticker = setInterval(tick, 5);
  const started = performance.now();
  try {
    const result = await work();
    const ms = performance.now() - started;
    tick();
    return { result, ms, maxDelayMs: delay.max / 1e6, longestBusyMs, utilization: performance.eventLoopUtilization(before).utilization };
  } finally {
    clearInterval(ticker);
    delay.disable();
  }
}
