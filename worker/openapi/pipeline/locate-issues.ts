/**
 * @module Gives build issues their file, source path and line. Issues are found in three spaces: the source
 * files themselves, the bundled document (before a Swagger 2.0 upgrade), and the normalised 3.x document;
 * each is mapped back to where the text is.
 */

import type { Origin } from "../bundle/bundle";
import { toRef } from "../model/pointer";
import type { PathSegment } from "../model/pointer";
import type { BuildIssue } from "../model/types";
import type { SourcePosition } from "../parse";

export interface IssueSources {
  /** Locates a path in a file (undefined = the root). */
  locate(file: string | undefined, path: readonly PathSegment[]): SourcePosition | undefined;
  /** Hoisted/inlined nodes of the bundled document, when there was bundling. */
  origins?: Map<string, Origin>;
  rootPath?: string;
  swagger2: boolean;
}

/** Issues found in the file they name (or the root): adds line and column. */
export function locateSourceIssues(issues: BuildIssue[], sources: IssueSources): BuildIssue[] {
  return issues.map((issue) => withPosition(issue, issue.file, issue.path, sources));
}

/** Issues whose path is in the bundled document: mapped through `origins` to their file. */
export function locateBundledIssues(issues: BuildIssue[], sources: IssueSources): BuildIssue[] {
  return issues.map((issue) => {
    const { file, path } = fromBundled(issue.path, sources);
    return withPosition({ ...issue, path }, file, path, sources);
  });
}

/** Issues whose path is in the normalised 3.x document (for Swagger 2.0, mapped back to 2.0 layout first). */
export function locateModelIssues(issues: BuildIssue[], sources: IssueSources): BuildIssue[] {
  return locateBundledIssues(sources.swagger2 ? issues.map((i) => ({ ...i, path: toSwagger2Path(i.path) })) : issues, sources);
}

function withPosition(issue: BuildIssue, file: string | undefined, path: PathSegment[], sources: IssueSources): BuildIssue {
  const at = sources.locate(file, path);
  const located: BuildIssue = { ...issue, path };
  if (file !== undefined && file !== sources.rootPath) located.file = file;
  else delete located.file;
  if (at) {
    located.line = at.line;
    located.column = at.column;
  }
  return located;
}

function fromBundled(path: PathSegment[], sources: IssueSources): { file: string | undefined; path: PathSegment[] } {
  const origins = sources.origins;
  if (origins?.size) {
    for (let k = path.length; k > 0; k--) {
      const origin = origins.get(toRef(path.slice(0, k)));
      if (origin) return { file: origin.file, path: [...origin.path, ...path.slice(k)] };
    }
  }
  return { file: undefined, path };
}

const SWAGGER2_SECTIONS: Record<string, string> = {
  schemas: "definitions",
  parameters: "parameters",
  responses: "responses",
  securitySchemes: "securityDefinitions",
  requestBodies: "parameters",
};

/** Where a normalised (upgraded) path was written in the Swagger 2.0 source, as nearly as the layout allows. */
export function toSwagger2Path(path: PathSegment[]): PathSegment[] {
  if (path[0] === "components" && typeof path[1] === "string" && Object.hasOwn(SWAGGER2_SECTIONS, path[1])) {
    const rest = path[1] === "requestBodies" ? path.slice(2, 3) : path.slice(2);
    return [SWAGGER2_SECTIONS[path[1]], ...rest];
  }
  if (path[0] === "paths" && path[3] === "requestBody") return [...path.slice(0, 3), "parameters"];
  if (path[0] === "paths" && path[3] === "responses" && path[5] === "content" && path[7] === "schema") {
    return [...path.slice(0, 5), "schema", ...path.slice(8)];
  }
  return path;
}
