// When work runs: at most one run at a time, asks merged, live changes drawn at most every LIVE_MS.

import { showError } from './status.js';

/**
 * `work` run at most one at a time: asks while it waits or runs merge into one more run after it, so a burst of
 * events costs one or two runs, never one each. `wait` says when a run starts (a delay, the next frame).
 */
export function coalesce(work, wait = (run) => setTimeout(run, 0)) {
  let waiting = false;
  let running = false;
  let again = false;
  async function run() {
    waiting = false;
    running = true;
    try {
      await work();
    } catch (e) {
      showError(e);
    } finally {
      running = false;
      if (again) {
        again = false;
        ask();
      }
    }
  }
  function ask() {
    if (running) again = true;
    else if (!waiting) {
      waiting = true;
      wait(run);
    }
  }
  return ask;
}

/**
 * Live changes are drawn every 100 ms at most, at the start of an animation frame: a frame each would draw up to 60
 * times a second for a bulk load that nobody reads that fast, each draw costing the page's main thread a layout and a
 * paint; and a draw in a timer between frames would force a layout that the frame then does again.
 */
const LIVE_MS = 100;
export const everyLiveInterval = (run) => setTimeout(() => nextFrame(run), LIVE_MS);

/** The next animation frame, or 100 ms when there is none (a hidden tab draws no frames). */
export function nextFrame(run) {
  let ran = false;
  const once = () => {
    if (!ran) {
      ran = true;
      run();
    }
  };
  requestAnimationFrame(once);
  setTimeout(once, 100);
}
