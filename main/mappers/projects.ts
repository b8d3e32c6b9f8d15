// Projects (spec 2.1) and their members as the API shows them. Why mappers live in main/mappers: dto.ts.
import type { ProjectRow } from '../store/schema.ts';
import type { MemberRow } from '../store/repositories/projectRepository.ts';
import { isoOut } from './dto.ts';

export const projectOut = (p: ProjectRow) => ({
  id: p.id,
  name: p.name,
  created_by: p.created_by,
  ocr_languages: p.ocr_languages,
  splitting_enabled: p.splitting_enabled,
  continuous_learning: p.continuous_learning,
  created_at: isoOut(p.created_at),
  updated_at: isoOut(p.updated_at),
});

export const memberOut = (m: MemberRow) => ({ id: m.user_id, email: m.email, name: m.name, role: m.role, created_at: isoOut(m.created_at) });
