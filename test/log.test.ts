// What main/log.ts blanks in a log line: credentials in URLs (also in fragments), Authorization values and
// token fields of logged objects, and what it leaves: the rest of the line, hashes and ordinary words.
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../main/log.ts';

const T = '0123456789abcdef0123456789abcdef01234567';

describe('redactSecrets', () => {
  it.each([
    [`GET /page/show-image/4/?token=${T} failed`, 'GET /page/show-image/4/?token=[redacted] failed'],
    [`GET /x/?a=1&access_token=${T}&b=2`, 'GET /x/?a=1&access_token=[redacted]&b=2'],
    [`callback https://hooks.example/cb?sig=abc_-1&fk=7.1700000000`, 'callback https://hooks.example/cb?sig=[redacted]&fk=[redacted]'],
    [`/oidc/callback?code=4/0AX-y&state=s`, '/oidc/callback?code=[redacted]&state=s'],
    [`/#sso-token=${T}`, '/#sso-token=[redacted]'],
    [`headers: { Authorization: 'Token ${T}' }`, "headers: { Authorization: '[redacted]' }"],
    [`Authorization: Bearer ${T}`, 'Authorization: Bearer [redacted]'],
    [`{"token":"${T}","id":3}`, '{"token":"[redacted]","id":3}'],
  ])('blanks %s', (line, expected) => {
    expect(redactSecrets(line)).toBe(expected);
    expect(redactSecrets(line)).not.toContain(T);
  });

  it('leaves other text alone', () => {
    const line = 'sending blob 8abdb4dc4cd8e3748342fac938aa2f444bb642eaeab4c0f345f262d39c1cd4fb failed: Invalid token. (page 2)';
    expect(redactSecrets(line)).toBe(line);
  });
});
