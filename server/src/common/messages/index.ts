export { fill, findMessage, issueCode, messageCode, say, translate, translateIssue } from './translate';
export { FRENCH, FRENCH_PHRASES } from './catalogue.fr';
