import { apiError } from '../errors.js';
import { empty } from '../http/result.js';
import { bindRoute } from '../http/route.js';
import { findMember, memberNotFound } from '../members.js';

/** DELETE /users/{userId}/connect (the path is questkit's choice: the contract shows none). */
export const deleteConnectAssociation = bindRoute(
  'deleteConnectAssociation',
  ({ params, query, community }, { store }) => {
    if (!findMember(store, community, params.userId))
      return memberNotFound(params.userId, community);
    const removed = store.connections.deleteByUser(params.userId, query.redirectUrl);
    if (removed === 0) {
      return apiError(
        404,
        query.redirectUrl === undefined
          ? `User ${params.userId} has no connect association`
          : `User ${params.userId} has no connect association for this redirect URL`,
      );
    }
    return empty();
  },
);
