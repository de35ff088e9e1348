/** @module Behaviours of content pages (guides, code steps), loaded as one small module; the pages read without it. */
import { installCodeSteps } from "../behaviors/code-steps";
import { installTabs } from "../behaviors/content-tabs";

installTabs();
installCodeSteps();
