/**
 * The dashboards made for the signed-in user (their companies' and systems', for their role level or
 * above), as links on the home page. Placeholder until the dashboards land.
 */
export default function HomeDashboards() {
  return null;
}
