import { accountPageTests } from './dashboard-account-pages.js';
import { navigationTests } from './dashboard-navigation.js';
import { searchPageTests } from './dashboard-search-pages.js';
import { DashboardSession } from './dashboard-session.js';
import { signInTests, signOutTests } from './dashboard-sign-in.js';
import { webhookPageTests } from './dashboard-webhook-pages.js';

/**
 * The customer dashboard in one browser session, page after page: its tests share the session
 * (the sign-in test signs it in, the last ones sign it out) and each page's tests count on those
 * before them (the usage page's credits, the watches page's empty list), so they run in this
 * order, in this one file. Each group of them is in the module named after it.
 */
describe('the customer dashboard in a browser', () => {
  const session = new DashboardSession();

  beforeAll(() => session.start());

  afterAll(() => session.stop());

  signInTests(session);
  accountPageTests(session);
  webhookPageTests(session);
  searchPageTests(session);
  navigationTests(session);
  signOutTests(session);
});
