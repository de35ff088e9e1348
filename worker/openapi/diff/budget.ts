/** @module The diff's work budget: schema pair visits and changes kept, so hostile definitions stop early. */

import { DIFF_BUDGET } from "../budgets";

/** Thrown inside the engine when a budget runs out; `diff` turns it into `truncated`. */
export class DiffBudgetExceeded extends Error {
  constructor(readonly what: string) {
    super(what);
  }
}

/** Counts work; throws {@link DiffBudgetExceeded} past {@link DIFF_BUDGET}. */
export class DiffBudget {
  private visits = 0;
  spend(units = 1): void {
    this.visits += units;
    if (this.visits > DIFF_BUDGET.maxVisits) throw new DiffBudgetExceeded(`compared ${DIFF_BUDGET.maxVisits.toLocaleString("en-US")} schema nodes`);
  }
  get spent(): number {
    return this.visits;
  }
}
