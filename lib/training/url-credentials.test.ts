import { describe, expect, it } from 'vitest';
import { redactUrlCredentials } from './url-credentials';

describe('redactUrlCredentials', () => {
  it('replaces the userinfo of every URL in a text, whatever it holds', () => {
    expect(redactUrlCredentials('POST https://user:pw@trainer.example/hook failed')).toBe('POST https://***@trainer.example/hook failed');
    expect(redactUrlCredentials('http://token@10.0.0.1:8080/x and HTTP://a:b@c.example?q')).toBe(
      'http://***@10.0.0.1:8080/x and HTTP://***@c.example?q',
    );
    // an @ inside the password (typed raw) goes too: the authority ends at the last @ before / ? #
    expect(redactUrlCredentials('https://u:p@ss@host.example/p@th')).toBe('https://***@host.example/p@th');
    // no userinfo: nothing changes, an @ in the path stays
    expect(redactUrlCredentials('https://host.example/a@b mail@example.com')).toBe('https://host.example/a@b mail@example.com');
  });

  it("removes the sink URL's user name and password wherever an error quotes them alone, raw or decoded", () => {
    const url = 'https://trainer:s%3Acret-42@trainer.example/hook';
    expect(redactUrlCredentials('auth s:cret-42 refused for trainer (s%3Acret-42)', url)).toBe('auth *** refused for *** (***)');
    expect(redactUrlCredentials('no URL here', 'not a url')).toBe('no URL here');
  });
});
