// Where a long load run is and when it should end: one status line on stderr
// (rewritten in place on a terminal, one line per step otherwise) with an ETA.

/** "45 s", "3 min 05 s". */
export function formatDuration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/**
 * The plan is a list of steps ({ seconds, ... }) run in order; steps can be
 * skipped (a failed route) or added (the warm-up of a restarted server). The
 * ETA scales the planned seconds left by how much longer than planned the
 * finished steps took (start-up, scrapes, settling).
 */
export class Progress {
  constructor({ stream = process.stderr, startupSeconds = 5 } = {}) {
    this.stream = stream;
    this.isTTY = Boolean(stream.isTTY);
    this.startupSeconds = startupSeconds;
    this.steps = [];
    this.doneSeconds = 0; // planned seconds of the finished steps
    this.realMs = 0; // real time from the first step's start to the last finish
    this.t0 = null;
    this.current = null;
    this.lastLength = 0;
  }

  plan(steps) {
    this.steps.push(...steps);
  }

  remainingSeconds() {
    const left = this.steps.filter((s) => !s.done && !s.skipped && s !== this.current).reduce((n, s) => n + s.seconds, 0);
    const factor = this.doneSeconds > 0 ? Math.max(1, this.realMs / 1000 / this.doneSeconds) : 1.15;
    const inCurrent = this.current ? Math.max(0, this.current.seconds - (Date.now() - this.current.startedAt) / 1000) : 0;
    return (left + inCurrent) * factor + (this.doneSeconds === 0 ? this.startupSeconds : 0);
  }

  /** "step 5/24": finished steps + 1, of all not skipped. */
  position() {
    const live = this.steps.filter((s) => !s.skipped);
    return `step ${live.filter((s) => s.done).length + 1}/${live.length}`;
  }

  start(step, label) {
    this.current = step;
    step.startedAt = Date.now();
    this.t0 ??= step.startedAt;
    step.label = label;
    const text = this.status(0, 0);
    if (this.isTTY) this.write(text);
    else this.stream.write(`${text}\n`);
  }

  status(elapsed, responses) {
    const s = this.current;
    return `[load] ${s.label}  ${this.position()}  ${Math.min(elapsed, s.seconds)}/${s.seconds} s` +
      `${responses ? `  ${responses} responses` : ''}  ETA ${formatDuration(this.remainingSeconds())}`;
  }

  tick(elapsed, responses) {
    if (this.isTTY && this.current) this.write(this.status(elapsed, responses));
  }

  finish(step) {
    step.done = true;
    this.doneSeconds += step.seconds;
    this.realMs = Date.now() - this.t0;
    if (this.current === step) this.current = null;
  }

  /** A line that stays (a round's result, a failure). */
  line(text) {
    if (this.isTTY) {
      this.write(text);
      this.stream.write('\n');
      this.lastLength = 0;
    } else {
      this.stream.write(`${text}\n`);
    }
  }

  write(text) {
    this.stream.write(`\r${text.padEnd(this.lastLength)}`);
    this.lastLength = text.length;
  }
}
