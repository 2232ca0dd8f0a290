import { describe, expect, it } from 'vitest';
import { deliveryBody, explainRefusedDelivery, WEBHOOK_USER_AGENT } from './delivery-checks.js';

describe('explainRefusedDelivery', () => {
  it('names what receivers written for another shape trip on, led by the 400 cause', () => {
    const text = explainRefusedDelivery({ status: 400 }) ?? '';
    expect(text).toMatch(/^The body is the event \{id, type, data, time\} plus "secret"/);
    expect(text).toContain('data.user.id, data.quest.id, data.community.subdomain');
    expect(text).toContain('not body.userId, not data.userId');
    expect(text).toContain('no signature header');
    expect(text).toContain('User-Agent is Svc-Webhook');
  });

  it('leads with the missing signature header on 401 and 403', () => {
    for (const status of [401, 403]) {
      expect(explainRefusedDelivery({ status })).toMatch(/^Deliveries carry no signature header/);
    }
  });

  it('says nothing of other answers', () => {
    for (const status of [200, 404, 500, undefined]) {
      expect(explainRefusedDelivery({ status })).toBeNull();
    }
  });
});

describe('deliveries', () => {
  it('come as the platform sends them: its User-Agent, the secret in the body', () => {
    expect(WEBHOOK_USER_AGENT).toBe('Svc-Webhook');
    expect(JSON.parse(deliveryBody({ id: 'e', type: 'QUEST_SUCCEEDED' }, 's'))).toEqual({
      id: 'e',
      type: 'QUEST_SUCCEEDED',
      secret: 's',
    });
  });
});
