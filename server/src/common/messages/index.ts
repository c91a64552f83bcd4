export { fill, findMessage, issueCode, messageCode, translate, translateIssue } from './translate';
export { FRENCH } from './catalogue.fr';
