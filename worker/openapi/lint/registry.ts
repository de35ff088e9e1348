/**
 * @module The rule registry: every rule Portico runs. Ids and default severities follow Spectral's
 * `spectral:oas` ruleset (the 57 rules of ../shared/lint-rules.md), plus `invalid-ref` and `pattern-not-checked`.
 */

import { arrayItems } from "./rules/array-items";
import { contactProperties } from "./rules/contact-properties";
import { duplicatedEntryInEnum } from "./rules/duplicated-entry-in-enum";
import { infoContact } from "./rules/info-contact";
import { infoDescription } from "./rules/info-description";
import { infoLicense } from "./rules/info-license";
import { invalidRef } from "./rules/invalid-ref";
import { licenseUrl } from "./rules/license-url";
import { noRefSiblings } from "./rules/no-$ref-siblings";
import { noEvalInMarkdown } from "./rules/no-eval-in-markdown";
import { noScriptTagsInMarkdown } from "./rules/no-script-tags-in-markdown";
import { oas2AnyOf } from "./rules/oas2-anyOf";
import { oas2ApiHost } from "./rules/oas2-api-host";
import { oas2ApiSchemes } from "./rules/oas2-api-schemes";
import { oas2Discriminator } from "./rules/oas2-discriminator";
import { oas2HostNotExample } from "./rules/oas2-host-not-example";
import { oas2HostTrailingSlash } from "./rules/oas2-host-trailing-slash";
import { oas2OneOf } from "./rules/oas2-oneOf";
import { oas2OperationFormDataConsumeCheck } from "./rules/oas2-operation-formData-consume-check";
import { oas2OperationSecurityDefined } from "./rules/oas2-operation-security-defined";
import { oas2ParameterDescription } from "./rules/oas2-parameter-description";
import { oas2Schema } from "./rules/oas2-schema";
import { oas2UnusedDefinition } from "./rules/oas2-unused-definition";
import { oas2ValidMediaExample } from "./rules/oas2-valid-media-example";
import { oas2ValidSchemaExample } from "./rules/oas2-valid-schema-example";
import { oas3ApiServers } from "./rules/oas3-api-servers";
import { oas3CallbacksInCallbacks } from "./rules/oas3-callbacks-in-callbacks";
import { oas3ExamplesValueOrExternalValue } from "./rules/oas3-examples-value-or-externalValue";
import { oas3OperationSecurityDefined } from "./rules/oas3-operation-security-defined";
import { oas3ParameterDescription } from "./rules/oas3-parameter-description";
import { oas3Schema } from "./rules/oas3-schema";
import { oas3ServerNotExampleCom } from "./rules/oas3-server-not-example.com";
import { oas3ServerTrailingSlash } from "./rules/oas3-server-trailing-slash";
import { oas3ServerVariables } from "./rules/oas3-server-variables";
import { oas3UnusedComponent } from "./rules/oas3-unused-component";
import { oas3ValidMediaExample } from "./rules/oas3-valid-media-example";
import { oas3ValidSchemaExample } from "./rules/oas3-valid-schema-example";
import { oas31CallbacksInWebhook } from "./rules/oas3_1-callbacks-in-webhook";
import { oas31ServersInWebhook } from "./rules/oas3_1-servers-in-webhook";
import { oas32NoDeprecatedXmlAttribute } from "./rules/oas3_2-no-deprecated-xml-attribute";
import { openapiTagsAlphabetical } from "./rules/openapi-tags-alphabetical";
import { openapiTagsUniqueness } from "./rules/openapi-tags-uniqueness";
import { openapiTags } from "./rules/openapi-tags";
import { operationDescription } from "./rules/operation-description";
import { operationOperationIdUnique } from "./rules/operation-operationId-unique";
import { operationOperationIdValidInUrl } from "./rules/operation-operationId-valid-in-url";
import { operationOperationId } from "./rules/operation-operationId";
import { operationParameters } from "./rules/operation-parameters";
import { operationSingularTag } from "./rules/operation-singular-tag";
import { operationSuccessResponse } from "./rules/operation-success-response";
import { operationTagDefined } from "./rules/operation-tag-defined";
import { operationTags } from "./rules/operation-tags";
import { pathDeclarationsMustExist } from "./rules/path-declarations-must-exist";
import { pathKeysNoTrailingSlash } from "./rules/path-keys-no-trailing-slash";
import { pathNotIncludeQuery } from "./rules/path-not-include-query";
import { pathParams } from "./rules/path-params";
import { tagDescription } from "./rules/tag-description";
import { typedEnum } from "./rules/typed-enum";
import { patternNotChecked } from "./rules/pattern-not-checked";
import type { LintRule } from "./rule";

export const RULES = [
  arrayItems,
  contactProperties,
  duplicatedEntryInEnum,
  infoContact,
  infoDescription,
  infoLicense,
  invalidRef,
  licenseUrl,
  noRefSiblings,
  noEvalInMarkdown,
  noScriptTagsInMarkdown,
  oas2AnyOf,
  oas2ApiHost,
  oas2ApiSchemes,
  oas2Discriminator,
  oas2HostNotExample,
  oas2HostTrailingSlash,
  oas2OneOf,
  oas2OperationFormDataConsumeCheck,
  oas2OperationSecurityDefined,
  oas2ParameterDescription,
  oas2Schema,
  oas2UnusedDefinition,
  oas2ValidMediaExample,
  oas2ValidSchemaExample,
  oas3ApiServers,
  oas3CallbacksInCallbacks,
  oas3ExamplesValueOrExternalValue,
  oas3OperationSecurityDefined,
  oas3ParameterDescription,
  oas3Schema,
  oas3ServerNotExampleCom,
  oas3ServerTrailingSlash,
  oas3ServerVariables,
  oas3UnusedComponent,
  oas3ValidMediaExample,
  oas3ValidSchemaExample,
  oas31CallbacksInWebhook,
  oas31ServersInWebhook,
  oas32NoDeprecatedXmlAttribute,
  openapiTagsAlphabetical,
  openapiTagsUniqueness,
  openapiTags,
  operationDescription,
  operationOperationIdUnique,
  operationOperationIdValidInUrl,
  operationOperationId,
  operationParameters,
  operationSingularTag,
  operationSuccessResponse,
  operationTagDefined,
  operationTags,
  pathDeclarationsMustExist,
  pathKeysNoTrailingSlash,
  pathNotIncludeQuery,
  pathParams,
  patternNotChecked,
  tagDescription,
  typedEnum,
] as const satisfies readonly LintRule[];

/** A rule id Portico knows. */
export type RuleId = (typeof RULES)[number]["id"];

/** Rules by id. */
export const RULES_BY_ID: ReadonlyMap<string, LintRule> = new Map(RULES.map((r) => [r.id, r]));
