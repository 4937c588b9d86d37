/**
 * Every site's metadata — id, match patterns, the settings that switch it on — without its DOM code, so the
 * background, the options page and the content-script declarations can list sites while each site's selectors
 * and parsers load only in that site's content script (import `./<site>/index.js` there).
 */
import { meta as facebook } from './facebook/facebook.match.js';
import { meta as gmail } from './gmail/gmail.match.js';
import { meta as instagram } from './instagram/instagram.match.js';
import { meta as linkedin } from './linkedin/linkedin.match.js';
import { meta as outlook } from './outlook/outlook.match.js';
import { meta as search } from './search/search.match.js';
import type { SiteId, SiteMeta } from './shared/types.js';
import { meta as x } from './x/x.match.js';
import { meta as youtube } from './youtube/youtube.match.js';

export const sites: Record<SiteId, SiteMeta> = { gmail, outlook, linkedin, instagram, facebook, youtube, x, search };

export type * from './shared/types.js';
