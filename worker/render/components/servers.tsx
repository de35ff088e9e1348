/** @module Servers with their variables (2.0 host + basePath + schemes arrive upgraded into this shape). */
import { isObject } from "../../openapi/schema-view/refs";
import { Markdown } from "./markdown";

/** A list of server URLs, descriptions and variables (default, allowed values). */
export function ServerList({ servers }: { servers: unknown[] }) {
  const list = servers.filter((s): s is Record<string, unknown> => isObject(s) && typeof s.url === "string");
  if (list.length === 0) return null;
  return (
    <ul class="sv">
      {list.map((s) => (
        <li>
          <code class="url">{String(s.url)}</code>
          <Markdown text={typeof s.description === "string" ? s.description : undefined} />
          {isObject(s.variables) && (
            <dl class="kv">
              {Object.entries(s.variables).map(([name, v]) => isObject(v) ? (
                <>
                  <dt><code>{`{${name}}`}</code></dt>
                  <dd>
                    default <code>{String(v.default ?? "")}</code>
                    {Array.isArray(v.enum) && <> · one of {v.enum.map((e, i) => <>{i > 0 ? ", " : ""}<code>{String(e)}</code></>)}</>}
                    {typeof v.description === "string" && <> · {v.description}</>}
                  </dd>
                </>
              ) : null)}
            </dl>
          )}
        </li>
      ))}
    </ul>
  );
}
