// Every endpoint of the API, in one list: the server mounts it and the OpenAPI document describes it.
import type { RouteSpec } from '../route.ts';
import { authRoutes } from './auth.ts';
import { projectRoutes } from './projects.ts';
import { projectFolderRoutes } from './projectFolders.ts';
import { documentRoutes } from './documents.ts';
import { annotationRoutes } from './annotations.ts';
import { taxonomyRoutes } from './taxonomy.ts';
import { eventRoutes } from './events.ts';
import { docsRoutes } from './docs.ts';
import { geometryRoutes } from './geometry.ts';
import { exportRoutes } from './export.ts';
import { segmentationRoutes } from './segmentation.ts';
import { aiRoutes } from './ais.ts';
import { postprocessRoutes } from './postprocess.ts';
import { readAgainRoutes } from './readAgain.ts';
import { backupRoutes } from './backup.ts';
import { importFolderRoutes } from './importFolders.ts';
import { publicLinkRoutes } from './publicLinks.ts';
import { oidcRoutes } from '../oidcRoutes.ts';

export const allRoutes: RouteSpec[] = [
  ...authRoutes,
  ...oidcRoutes,
  ...projectFolderRoutes,
  ...projectRoutes,
  ...documentRoutes,
  ...annotationRoutes,
  ...taxonomyRoutes,
  ...eventRoutes,
  ...docsRoutes(() => allRoutes),
  ...geometryRoutes,
  ...exportRoutes,
  ...segmentationRoutes,
  ...aiRoutes,
  ...postprocessRoutes,
  ...readAgainRoutes,
  ...backupRoutes,
  ...importFolderRoutes,
  ...publicLinkRoutes,
];
