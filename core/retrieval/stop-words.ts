/**
 * English function words that say nothing about what a text is about: BM25 skips them. The list
 * is the Snowball English stop list (the one Lucene, NLTK and most search engines start from),
 * lower-cased, with contractions written without their apostrophe because the tokenizer drops it
 * (`don't` becomes `dont`). Numbers and words that carry meaning in a coding context (`new`,
 * `first`, `not`) are deliberately absent or kept: `not` changes what a rule says.
 *
 * @example
 * STOP_WORDS.has("the"); // true
 * STOP_WORDS.has("deploy"); // false
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all am an and any are arent as at be because been before " +
    "being below between both but by cant cannot could couldnt did didnt do does doesnt doing dont " +
    "down during each few for from further had hadnt has hasnt have havent having he hed hell hes " +
    "her here heres hers herself him himself his how hows i id ill im ive if in into is isnt it its " +
    "itself lets me more most mustnt my myself no nor of off on once only or other ought our ours " +
    "ourselves out over own same shant she shed shell shes should shouldnt so some such than that " +
    "thats the their theirs them themselves then there theres these they theyd theyll theyre " +
    "theyve this those through to too under until up very was wasnt we wed well were weve werent " +
    "what whats when whens where wheres which while who whos whom why whys with wont would wouldnt " +
    "you youd youll youre youve your yours yourself yourselves s t also just can will"
  ).split(" "),
);
