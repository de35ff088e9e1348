/**
 * @module Work budgets (run time) for the publish core; the static limits of each step are in budgets.ts (issue 14): a hostile definition must not hold the publisher's
 * isolate. A {@link WorkBudget} is passed into the build's loops, which call `spend` as they go; when the units or
 * the deadline run out, `spend` throws {@link BudgetExceeded}, which `buildReference` answers with a 422.
 *
 * Units, not only time: in workerd `Date.now()` does not advance while synchronous code runs (it moves on I/O),
 * so a CPU loop cannot see its own clock. The unit count bounds the loop there; the deadline bounds it in Node
 * and browsers (the editor's lint worker) and across the publisher's awaits. Clock reads are amortised: one per
 * {@link CLOCK_EVERY} units.
 */

/** Why a budget stopped a step: its work units or its deadline ran out. */
export type BudgetReason = "work" | "time";

/** Thrown by {@link WorkBudget.spend}; carries the step that ran out, for the refusal's message. */
export class BudgetExceeded extends Error {
  constructor(
    readonly step: string,
    readonly reason: BudgetReason,
    message = reason === "time" ? `${step} ran past the publish deadline` : `${step} needed more work than a publish is allowed`,
  ) {
    super(message);
    this.name = "BudgetExceeded";
  }
}

/** A budget shared by every step of one build (or one page render). */
export interface WorkBudget {
  /**
   * Spends `units` (default 1: about one node visited or one item produced) in `step` (a short noun phrase shown
   * to the uploader, e.g. "resolving $refs"). Throws {@link BudgetExceeded} once the units are used up or the
   * deadline has passed.
   */
  spend(step: string, units?: number): void;
  /** Reads the clock now (not amortised) and throws {@link BudgetExceeded} when past the deadline or out of units. */
  check(step: string): void;
  /**
   * Raises the unit ceiling to `units` when that is higher (never lowers it): a publish learns its body's size
   * after its budget was made, and a larger body may do more work (see build.ts publishWorkUnits).
   */
  raise(units: number): void;
  /** Units spent so far. */
  readonly spent: number;
  /** The unit ceiling now. */
  readonly units: number;
  /** True once `spend` has thrown (or would throw on the next call). */
  readonly exhausted: boolean;
}

/** Clock reads happen once per this many units. */
export const CLOCK_EVERY = 4096;

export interface BudgetOptions {
  /** Work units allowed (default: unlimited). */
  units?: number;
  /** Absolute deadline, milliseconds since the epoch as `now()` counts them (default: none). */
  deadline?: number;
  /** The clock (default `Date.now`). */
  now?: () => number;
}

/** Creates a budget of `units` work units and/or a `deadline`. */
export function createBudget({ units = Infinity, deadline = Infinity, now = Date.now }: BudgetOptions = {}): WorkBudget {
  let spent = 0;
  let nextClock = CLOCK_EVERY;
  let exhausted = false;
  return {
    spend(step, n = 1) {
      spent += n;
      if (spent > units) {
        exhausted = true;
        throw new BudgetExceeded(step, "work");
      }
      if (spent >= nextClock) {
        nextClock = spent + CLOCK_EVERY;
        if (now() > deadline) {
          exhausted = true;
          throw new BudgetExceeded(step, "time");
        }
      }
    },
    check(step) {
      if (spent > units) throw new BudgetExceeded(step, "work");
      if (now() > deadline) {
        exhausted = true;
        throw new BudgetExceeded(step, "time");
      }
    },
    raise(n) {
      if (n > units) units = n;
    },
    get spent() {
      return spent;
    },
    get units() {
      return units;
    },
    get exhausted() {
      return exhausted || spent > units;
    },
  };
}

/** A budget that never runs out (tools, tests, and callers that bound their input some other way). */
export const UNLIMITED: WorkBudget = createBudget();
