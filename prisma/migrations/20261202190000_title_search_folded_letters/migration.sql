-- Title search text folds the letters that carry no combining mark (ß, æ, œ, ø, ł, đ, ð, þ, ħ, ı,
-- ŋ, ſ) as unaccent does (libs/job-filters `titleWords`): "Łódź" is found by `lodz`. Titles stored
-- since dedupe wrote the search text itself split on those letters instead; rewrite just those rows
-- with the same expression the first backfill used, which agrees with `titleSearchText` on them.
UPDATE "canonical_jobs"
SET "title_search" = ' ' || btrim(regexp_replace(lower(unaccent("title")), '[^a-z0-9+#]+', ' ', 'g')) || ' '
WHERE "title" ~ '[ßẞæÆœŒøØłŁŀĿđĐðÐþÞħĦıŋŊſ]';
