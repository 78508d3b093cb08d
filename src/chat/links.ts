// The links to an engagement: opening one (the URI handler) and Copy Link, loaded together by
// import() when the first of them is used; both build on link.ts, and one chunk costs less than two.
export { copyLink } from './copyLink';
export { openLink } from './openLink';
