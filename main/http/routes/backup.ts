// When the data folder was last backed up (`folio backup` records it), so the settings screen can say so.
import { route, type RouteSpec } from '../route.ts';
import { BackupStatus } from '../../../shared/schemas/backup.ts';
import { lastBackup } from '../../backup/backup.ts';

export const backupRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/v3/backup/',
    tag: 'backup',
    summary: 'When the last backup of this data folder was made',
    description: 'Backups are made with `folio backup <file>` (also while Folio runs) and brought back with `folio restore <file>` into an empty folder.',
    response: BackupStatus,
    handler: async ({ core }) => ({ last_backup: lastBackup(core.config.dataDir) }),
  }),
];
