/**
 * @module "Was this page helpful? Yes / No" at the end of every reader page's `<main>` (issue 29). Rendered hidden:
 * client/behaviors/page-feedback.ts shows it and sends the answer (No opens an optional comment), as a `feedback`
 * event to `{basePath}/analytics/events`.
 */

/** The feedback block for a page of the portal at `basePath`. */
export function PageFeedback({ basePath }: { basePath: string }) {
  return (
    <section class="fb" data-page-feedback data-base={basePath} aria-label="Page feedback" hidden>
      <div class="fb-ask">
        <span class="fb-q">Was this page helpful?</span> <button type="button" data-helpful="yes">Yes</button> <button type="button" data-helpful="no">No</button>
      </div>
      <form class="fb-comment" hidden>
        <label>What was missing or wrong? (optional)<textarea name="comment" rows={3} maxLength={1000} /></label>
        <button type="submit">Send</button>
      </form>
      <p class="fb-thanks" tabIndex={-1} hidden>Thank you for your feedback.</p>
    </section>
  );
}
