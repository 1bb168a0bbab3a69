import { authCalls, type MemberIcon } from '@portal/contracts/api/auth';
import { call } from '../../../lib/api';

/** PUT /wps/member/info/icon: the member's profile picture, one of MEMBER_ICONS; answers its URL. */
export function setMemberIcon(icon: MemberIcon) {
  return call(authCalls.memberIcon, { body: { icon } });
}
