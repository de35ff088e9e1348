/**
 * @module The `Mailer` port (magic links) with its two adapters: the embedded default stores messages in D1's
 * `outbox` (shown on the dev-only outbox page), the production adapter posts to an email HTTP API (Resend's
 * `POST /emails` shape: `{from, to, subject, text}` with a bearer key). Chosen once per request by `mailerFor`.
 * @see https://resend.com/docs/api-reference/emails/send-email
 */
import { addToOutbox } from "../store/readers";

/** One plain-text message. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends mail for a portal (reader sign-in), or for the workspace itself with `portalId` null (writers' sign-in
 * links, invitations, credit warnings): the one Outbox port. Rejects when the message could not be handed over.
 */
export interface Mailer {
  readonly kind: "outbox" | "http";
  send(portalId: number | null, message: MailMessage): Promise<void>;
}

/** The embedded default: messages kept in D1 (`outbox`), read on `/p/{portal}/auth/outbox` and `/dev/outbox?to=` in local runs. */
export function outboxMailer(db: D1Database): Mailer {
  return { kind: "outbox", send: (portalId, message) => addToOutbox(db, portalId, message) };
}

/** Settings of the HTTP adapter. `fetch` is injectable so tests run it against a recorded fake. */
export interface HttpMailerOptions {
  apiKey: string;
  from: string;
  endpoint?: string;
  fetch?: typeof fetch;
}

/** The production adapter: one POST per message; a non-2xx answer rejects with the status (never the key). */
export function httpMailer(options: HttpMailerOptions): Mailer {
  const endpoint = options.endpoint ?? "https://api.resend.com/emails";
  const doFetch = options.fetch ?? fetch;
  return {
    kind: "http",
    async send(_portalId, message) {
      const res = await doFetch(endpoint, {
        method: "POST",
        headers: { authorization: `Bearer ${options.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ from: options.from, to: [message.to], subject: message.subject, text: message.text }),
      });
      if (!res.ok) throw new Error(`the email API answered ${res.status}`);
    },
  };
}

/** The HTTP adapter when `MAIL_API_KEY` and `MAIL_FROM` are set, else the D1 outbox. */
export function mailerFor(env: Pick<Env, "DB"> & { MAIL_API_KEY?: string; MAIL_FROM?: string }): Mailer {
  return env.MAIL_API_KEY && env.MAIL_FROM ? httpMailer({ apiKey: env.MAIL_API_KEY, from: env.MAIL_FROM }) : outboxMailer(env.DB);
}
