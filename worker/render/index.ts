/** @module Reader pages rendered on the server (Preact SSR): what the reference routes call. */
export type { ApiRef, PageProps, PortalRef, VersionRef } from "./types";
export { renderPortalHome, type PortalHomeProps } from "./pages/portal-home";
export { renderVersionIndex, type VersionIndexProps } from "./pages/version-index";
export { renderOperationFragment, renderOperationPage, type OperationPageProps } from "./pages/operation-page";
export { renderSinglePage, type SinglePageProps } from "./pages/single-page";
export { renderErrorPage, type ErrorPageProps } from "./pages/error-page";
export { renderChangesPage, type ChangesPageProps } from "./pages/changes-page";
export { renderMarkdown, renderMarkdownInline } from "./markdown";
export { versionUrl, operationUrl, apiUrl, tagAnchor } from "./urls";
