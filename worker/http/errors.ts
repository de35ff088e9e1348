/** @module Domain errors of the service API and their JSON problem bodies. */
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Body shape of every service API error: `{"error": {"code", "message", "details"?}}`. */
export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

/**
 * An expected refusal (bad input, auth, conflicts): mapped by `app.onError` to its status and a JSON body.
 * Anything else thrown is logged and answered as a generic 500.
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ApiError";
  }

  /** The JSON body for this error. */
  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.details === undefined ? {} : { details: this.details }) } };
  }
}
