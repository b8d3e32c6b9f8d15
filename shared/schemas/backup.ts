// The last backup of the data folder (`folio backup`), for the settings screen.
import { z } from 'zod';
import { Timestamp } from './common.ts';

export const BackupStatus = z.object({
  last_backup: z
    .object({
      created_at: Timestamp.describe('when its database snapshot was taken: the backup holds what was saved before'),
      size: z.number().int().describe('bytes of the backup file'),
    })
    .nullable()
    .describe('null until `folio backup` has made one of this data folder'),
});
export type BackupStatus = z.infer<typeof BackupStatus>;
