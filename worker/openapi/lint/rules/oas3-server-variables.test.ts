import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("oas3-server-variables", () => {
  it("reports unused, undefined and default-less variables, and defaults outside the enum", () => {
    expect(
      lintRule(
        "oas3-server-variables",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        servers:
          - url: https://{region}.acme.io/{version}
            variables:
              region:
                enum: [eu, us]
                default: ap
              unused:
                default: x
        paths: {}
        `,
      ),
    ).toEqual([
      { line: 5, message: 'Not all server\'s variables are described with "variables" object. Missed: version.', path: "/servers/0/variables" },
      { line: 8, message: 'Server Variable "region" has a default not listed in the enum.', path: "/servers/0/variables/region/default" },
      { line: 9, message: 'Server\'s "variables" object has unused defined "unused" url variable.', path: "/servers/0/variables/unused" },
    ]);
  });

  it("reports substitutions that make invalid URLs, and malformed server objects", () => {
    expect(
      lintRule(
        "oas3-server-variables",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        servers:
          - url: "{scheme}://acme.io"
            variables:
              scheme: {enum: [https, "not a scheme"], default: https}
          - url: https://{port}
            variables:
              port: {default: 443}
        paths: {}
        `,
      ),
    ).toEqual([
      { line: 5, message: "A few substitutions of server variables resulted in invalid URLs: not%20a%20scheme://acme.io", path: "/servers/0/variables" },
      { line: 7, message: "Invalid Server Object", path: "/servers/1" },
    ]);
  });
});
