import { describe, expect, it } from 'vitest';
import { CommunitySchema, ModuleListSchema, ModuleSchema } from './community.js';
import { describeFields, issuePaths } from './field-cases.testkit.js';

const community = {
  name: 'Demo',
  subdomain: 'demo',
  id: 'c-1',
  image: 'https://cdn.example.com/demo.png',
  description: 'A demo community',
  sector: 'gaming',
  blockchain: 'ethereum',
  type: 'dao',
  totalMembers: 42,
};

const module = {
  id: 'm-1',
  name: 'Onboarding',
  description: 'First steps',
  color: '#ff8800',
  coverUrl: 'https://cdn.example.com/cover.png',
  position: 0,
};

describeFields('Community', CommunitySchema, community, {
  required: ['name', 'subdomain', 'id', 'totalMembers'],
  nullable: ['image', 'description', 'sector', 'blockchain', 'type'],
});

describeFields('Module', ModuleSchema, module, {
  required: ['id', 'name', 'position'],
  nullable: ['description', 'color', 'coverUrl'],
});

describe('Community', () => {
  it.each([-1, 2.5])('rejects totalMembers %s', (totalMembers) => {
    expect(issuePaths(CommunitySchema, { ...community, totalMembers })).toEqual(['totalMembers']);
  });
});

describe('Module list', () => {
  it('accepts an empty list and a list of modules', () => {
    expect(issuePaths(ModuleListSchema, [])).toEqual([]);
    expect(issuePaths(ModuleListSchema, [module, { ...module, id: 'm-2', color: null }])).toEqual(
      [],
    );
  });

  it('names the bad element', () => {
    expect(issuePaths(ModuleListSchema, [module, { ...module, name: null }])).toEqual(['1.name']);
  });
});
