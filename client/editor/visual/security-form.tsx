/**
 * @module Security: the security schemes (OpenAPI 3.x `components.securitySchemes`, Swagger 2.0
 * `securityDefinitions`), every type with its fields, OAuth 2.0 flows with their URLs and scopes; and the
 * document's default security requirements. Operations' own requirements are in operation-form.tsx
 * ({@link SecurityRequirements}).
 * @see https://spec.openapis.org/oas/v3.2#security-scheme-object, https://swagger.io/specification/v2/#security-definitions-object
 */
import { useState } from "preact/hooks";
import { fromPointer, toPointer } from "../pointer";
import { CheckField, EditButton, ListField, SelectField, TextField } from "./fields";
import { useForm } from "./form-context";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});
const key = (k: string) => toPointer([k]);

const TYPES_V3 = ["apiKey", "http", "mutualTLS", "oauth2", "openIdConnect"];
const TYPES_V2 = ["basic", "apiKey", "oauth2"];
/** OAuth 2.0 flows and the URLs each needs (3.2 adds the device authorization flow, RFC 8628). */
const FLOWS: Record<string, readonly string[]> = {
  implicit: ["authorizationUrl", "refreshUrl"],
  password: ["tokenUrl", "refreshUrl"],
  clientCredentials: ["tokenUrl", "refreshUrl"],
  authorizationCode: ["authorizationUrl", "tokenUrl", "refreshUrl"],
  deviceAuthorization: ["deviceAuthorizationUrl", "tokenUrl", "refreshUrl"],
};
const URL_LABELS: Record<string, string> = { authorizationUrl: "Authorization URL", tokenUrl: "Token URL", refreshUrl: "Refresh URL", deviceAuthorizationUrl: "Device authorization URL" };
const V2_FLOWS = ["implicit", "password", "application", "accessCode"];

/** Where a version keeps its schemes. */
export function schemesPointer(spec: string | undefined): string {
  return spec === "2.0" ? "/securityDefinitions" : "/components/securitySchemes";
}

export function SecurityForm() {
  const { model, session } = useForm();
  const v2 = model.specVersion === "2.0";
  const base = schemesPointer(model.specVersion);
  const schemes = obj(model.values[base]);
  const [name, setName] = useState("");
  return (
    <div class="ed-form-grid">
      {Object.keys(schemes).length === 0 && <p>No security schemes: readers see every operation as open.</p>}
      {Object.entries(schemes).map(([schemeName, raw]) => (
        <Scheme key={schemeName} name={schemeName} pointer={`${base}${key(schemeName)}`} scheme={obj(raw)} v2={v2} />
      ))}
      <div class="ed-inline">
        <input aria-label="Name of the new security scheme" placeholder="apiKeyAuth" value={name} size={16} onInput={(e) => setName(e.currentTarget.value)} />
        <EditButton
          label="Add security scheme"
          onClick={() => {
            const n = name.trim();
            if (!/^[A-Za-z0-9._-]+$/.test(n) || n in schemes) return;
            void session.structural({ op: "set", path: [...fromPointer(base), n], value: { type: "apiKey", name: "X-API-Key", in: "header" } });
            setName("");
          }}
        />
      </div>
      <h3>Default security requirements</h3>
      <p class="ed-muted">Apply to every operation that does not set its own.</p>
      <SecurityRequirements pointer="/security" value={model.values["/security"]} schemes={Object.keys(schemes)} />
    </div>
  );
}

function Scheme({ name, pointer, scheme, v2 }: { name: string; pointer: string; scheme: Obj; v2: boolean }) {
  const { session, model } = useForm();
  const type = typeof scheme.type === "string" ? scheme.type : "";
  if (typeof scheme.$ref === "string") {
    return (
      <fieldset class="ed-item" data-scheme={name}>
        <legend>{name}</legend>
        <TextField label="$ref" pointer={`${pointer}/$ref`} value={scheme.$ref} />
      </fieldset>
    );
  }
  const flows = obj(scheme.flows);
  return (
    <fieldset class="ed-item" data-scheme={name}>
      <legend>{name}</legend>
      <SelectField label="Type" pointer={`${pointer}/type`} value={scheme.type} options={v2 ? TYPES_V2 : TYPES_V3} />
      <TextField label="Description (Markdown)" pointer={`${pointer}/description`} value={scheme.description} multiline />
      {type === "apiKey" && (
        <>
          <TextField label="Parameter name" pointer={`${pointer}/name`} value={scheme.name} placeholder="X-API-Key" />
          <SelectField label="In" pointer={`${pointer}/in`} value={scheme.in} options={v2 ? ["query", "header"] : ["query", "header", "cookie"]} />
        </>
      )}
      {type === "http" && (
        <>
          <TextField label="Scheme" pointer={`${pointer}/scheme`} value={scheme.scheme} placeholder="bearer" />
          {String(scheme.scheme ?? "").toLowerCase() === "bearer" && <TextField label="Bearer format" pointer={`${pointer}/bearerFormat`} value={scheme.bearerFormat} placeholder="JWT" />}
        </>
      )}
      {type === "openIdConnect" && <TextField label="OpenID Connect URL" pointer={`${pointer}/openIdConnectUrl`} value={scheme.openIdConnectUrl} placeholder="https://example.com/.well-known/openid-configuration" />}
      {type === "oauth2" && !v2 && (
        <>
          {model.specVersion === "3.2" && <TextField label="OAuth 2.0 metadata URL" pointer={`${pointer}/oauth2MetadataUrl`} value={scheme.oauth2MetadataUrl} />}
          {Object.entries(flows).map(([flow, f]) => (
            <Flow key={flow} flow={flow} pointer={`${pointer}/flows${key(flow)}`} value={obj(f)} urls={FLOWS[flow] ?? ["authorizationUrl", "tokenUrl", "refreshUrl"]} />
          ))}
          <AddFlow pointer={`${pointer}/flows`} present={Object.keys(flows)} spec={model.specVersion} />
        </>
      )}
      {type === "oauth2" && v2 && (
        <>
          <SelectField label="Flow" pointer={`${pointer}/flow`} value={scheme.flow} options={V2_FLOWS} />
          {(scheme.flow === "implicit" || scheme.flow === "accessCode") && <TextField label="Authorization URL" pointer={`${pointer}/authorizationUrl`} value={scheme.authorizationUrl} />}
          {scheme.flow !== "implicit" && <TextField label="Token URL" pointer={`${pointer}/tokenUrl`} value={scheme.tokenUrl} />}
          <Scopes pointer={`${pointer}/scopes`} scopes={obj(scheme.scopes)} />
        </>
      )}
      {(model.specVersion === "3.2") && <CheckField label="Deprecated" pointer={`${pointer}/deprecated`} value={scheme.deprecated} />}
      <EditButton label="Remove security scheme" danger onClick={() => void session.structural({ op: "delete", path: fromPointer(pointer) })} />
    </fieldset>
  );
}

function Flow({ flow, pointer, value, urls }: { flow: string; pointer: string; value: Obj; urls: readonly string[] }) {
  const { session } = useForm();
  return (
    <fieldset class="ed-sub" data-flow={flow}>
      <legend>Flow: {flow}</legend>
      {urls.map((u) => (
        <TextField key={u} label={URL_LABELS[u] ?? u} pointer={`${pointer}/${u}`} value={value[u]} />
      ))}
      <Scopes pointer={`${pointer}/scopes`} scopes={obj(value.scopes)} />
      <EditButton label={`Remove ${flow} flow`} danger onClick={() => void session.structural({ op: "delete", path: fromPointer(pointer) })} />
    </fieldset>
  );
}

function AddFlow({ pointer, present, spec }: { pointer: string; present: string[]; spec: string | undefined }) {
  const { session } = useForm();
  const missing = Object.keys(FLOWS).filter((f) => !present.includes(f) && (f !== "deviceAuthorization" || spec === "3.2"));
  const [flow, setFlow] = useState("");
  if (missing.length === 0) return null;
  const chosen = missing.includes(flow) ? flow : missing[0];
  return (
    <div class="ed-inline">
      <select aria-label="New OAuth 2.0 flow" value={chosen} onChange={(e) => setFlow(e.currentTarget.value)}>
        {missing.map((f) => (
          <option key={f} value={f}>{f}</option>
        ))}
      </select>
      <EditButton
        label="Add flow"
        onClick={() => {
          const value: Obj = {};
          for (const u of FLOWS[chosen]) if (u !== "refreshUrl") value[u] = u === "tokenUrl" ? "https://example.com/oauth/token" : u === "authorizationUrl" ? "https://example.com/oauth/authorize" : "https://example.com/oauth/device";
          value.scopes = {};
          void session.structural({ op: "set", path: [...fromPointer(pointer), chosen], value });
        }}
      />
    </div>
  );
}

/** A flow's scopes: name → description, each editable; scopes added by name, removed one by one. */
function Scopes({ pointer, scopes }: { pointer: string; scopes: Obj }) {
  const { session } = useForm();
  const [name, setName] = useState("");
  return (
    <div class="ed-scopes">
      <span class="ed-label">Scopes</span>
      {Object.keys(scopes).length === 0 && <p class="ed-muted">No scopes.</p>}
      {Object.entries(scopes).map(([scope, description]) => (
        <div key={scope} class="ed-inline" data-scope={scope}>
          <TextField label={scope} pointer={`${pointer}${key(scope)}`} value={description} />
          <EditButton label={`Remove scope ${scope}`} danger onClick={() => void session.structural({ op: "delete", path: [...fromPointer(pointer), scope] })} />
        </div>
      ))}
      <div class="ed-inline">
        <input aria-label={`New scope of ${pointer}`} placeholder="read:things" value={name} size={16} onInput={(e) => setName(e.currentTarget.value)} />
        <EditButton
          label="Add scope"
          onClick={() => {
            const n = name.trim();
            if (!n || n in scopes) return;
            void session.structural({ op: "set", path: [...fromPointer(pointer), n], value: "Describe this scope" });
            setName("");
          }}
        />
      </div>
    </div>
  );
}

/**
 * A list of security requirements (`security` of the document or of an operation): each is one or more
 * schemes that must all be satisfied, with the scopes (OAuth 2.0, OpenID Connect) or roles each needs;
 * any one requirement suffices. An empty list (`security: []`) makes the operation open.
 */
export function SecurityRequirements({ pointer, value, schemes }: { pointer: string; value: unknown; schemes: string[] }) {
  const { session } = useForm();
  const list = Array.isArray(value) ? value : undefined;
  const [scheme, setScheme] = useState("");
  const chosen = schemes.includes(scheme) ? scheme : schemes[0];
  return (
    <div class="ed-security" data-pointer={pointer} tabIndex={-1}>
      {list === undefined && <p class="ed-muted">Not set{pointer === "/security" ? "" : ": the document's default applies"}.</p>}
      {list !== undefined && list.length === 0 && <p class="ed-muted">Empty: no authentication needed.</p>}
      {(list ?? []).map((raw, i) => {
        const req = obj(raw);
        const base = `${pointer}/${i}`;
        return (
          <fieldset key={i} class="ed-sub" data-requirement={i}>
            <legend>{Object.keys(req).length === 0 ? "Anonymous (optional authentication)" : `Requirement ${i + 1}`}</legend>
            {Object.entries(req).map(([name, scopes]) => (
              <div key={name} class="ed-inline">
                <ListField label={`${name}: scopes`} pointer={`${base}${key(name)}`} value={scopes} placeholder="no scopes" keepEmpty />
                <EditButton label={`Remove ${name}`} danger onClick={() => void session.structural({ op: "delete", path: [...fromPointer(base), name] })} />
              </div>
            ))}
            <EditButton label="Remove requirement" danger onClick={() => void session.structural({ op: "delete", path: fromPointer(base) })} />
          </fieldset>
        );
      })}
      {schemes.length > 0 && (
        <div class="ed-inline">
          <select aria-label={`Scheme of a new requirement (${pointer})`} value={chosen} onChange={(e) => setScheme(e.currentTarget.value)}>
            {schemes.map((s) => (
              <option key={s} value={s}>{s}</option>
            ))}
          </select>
          <EditButton
            label="Add requirement"
            onClick={() => void session.structural(list === undefined ? { op: "set", path: fromPointer(pointer), value: [{ [chosen]: [] }] } : { op: "append", path: fromPointer(pointer), value: { [chosen]: [] } })}
          />
        </div>
      )}
      {list === undefined && pointer !== "/security" && (
        <EditButton label="Make it open (security: [])" onClick={() => void session.structural({ op: "set", path: fromPointer(pointer), value: [] })} />
      )}
      {list !== undefined && pointer !== "/security" && (
        <EditButton label="Use the document's default" onClick={() => void session.structural({ op: "delete", path: fromPointer(pointer) })} />
      )}
    </div>
  );
}
