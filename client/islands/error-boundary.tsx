/** @module Error boundary for islands: if one throws, the server-rendered HTML it replaced comes back. */
import { Component, type ComponentChildren } from "preact";

interface Props {
  name: string;
  /** The island's server-rendered markup, restored on failure (readable, like with scripts off). */
  fallbackHtml: string;
  children?: ComponentChildren;
}

/** Catches render and effect errors below it (Preact calls `componentDidCatch` on the nearest boundary). */
export class IslandBoundary extends Component<Props, { failed: boolean }> {
  state = { failed: false };
  componentDidCatch(error: unknown) {
    console.warn(`island ${this.props.name} failed`, error);
    this.setState({ failed: true });
  }
  render() {
    if (this.state.failed) return <div class="island-failed" dangerouslySetInnerHTML={{ __html: this.props.fallbackHtml }} />;
    return this.props.children;
  }
}
