/** @module The check registry: every check family the diff runs, in report order. */

import type { DiffCheck } from "./check";
import { componentsCheck } from "./checks/components";
import { deprecationCheck } from "./checks/deprecation";
import { endpointsCheck } from "./checks/endpoints";
import { operationMetaCheck } from "./checks/operation-meta";
import { parametersCheck } from "./checks/parameters";
import { requestBodyCheck } from "./checks/request-body";
import { responsesCheck } from "./checks/responses";
import { securityCheck } from "./checks/security";
import { serversCheck } from "./checks/servers";

export const CHECKS: readonly DiffCheck[] = [endpointsCheck, deprecationCheck, operationMetaCheck, parametersCheck, requestBodyCheck, responsesCheck, securityCheck, componentsCheck, serversCheck];
