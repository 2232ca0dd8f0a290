// A realistic delivered event for the receiver's tests: every nested object filled as real
// receivers read it (platform-docs-notes.md §3).

export const COMMUNITY = {
  id: '0b3c6f0e-6a4f-4f63-9a55-2f1f8d1c9a10',
  name: 'Demo',
  subdomain: 'demo',
  blockchain: 'ethereum',
  discord: 'https://discord.gg/demo',
  twitter: null,
  website: 'https://demo.example',
};

export const USER = {
  id: '5b0f1c2e-9d3a-4c7b-8e6f-1a2b3c4d5e6f',
  name: 'Ada',
  twitter: { id: '1234', username: 'ada' },
  discord: null,
  email: 'ada@example.com',
  addresses: { ethereum: '0x52908400098527886E0F7030069857D2E4169EE7' },
};

export const QUEST = {
  id: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
  name: 'Follow us on X',
  categoryId: '3f2e1d0c-9b8a-4f7e-8d6c-5b4a3f2e1d0c',
  categoryName: 'Social',
  xp: 100,
  published: true,
  autoValidate: true,
  tasks: [{ id: 't-1', type: 'text' }],
  lastReviewerId: null,
};

/** A `QUEST_SUCCEEDED` event, as delivered without its `secret`. */
export const QUEST_SUCCEEDED = {
  id: 'evt-1',
  type: 'QUEST_SUCCEEDED',
  time: 1_748_779_200_000,
  data: {
    community: COMMUNITY,
    user: USER,
    quest: QUEST,
    taskInputs: [{ taskId: 't-1', taskType: 'text', input: { value: 'ada' } }],
  },
};
