import { BROADER } from './broader-terms';
import { tokenize } from './tokenize';

// Groups of words that name the same need in different ways ("homestay" and "accommodation", "btc" and "crypto"),
// with a few Chinese equivalents for catalogs described in Chinese. A request rarely uses a tool's own words; each
// query word also searches for the other words of its groups, at a lower weight. The groups are general vocabulary of
// tool catalogs (finance, travel, files, code, media, ...), written while reading the dev-set misses by category, so
// the dev numbers flatter them somewhat: the held-out queries are the honest check. Keep each group tight, since
// every member pulls in all the others.
const GROUPS: readonly string[] = [
  // money and markets
  'stock stocks share shares equity equities ticker tickers nasdaq nyse market markets finance financial trading 股票 股市',
  'finance financial financials money investment investments invest investor investing portfolio fund funds wealth 财经 金融 投资',
  'crypto cryptocurrency cryptocurrencies bitcoin btc ethereum eth coin coins token tokens blockchain defi nft web3 finance financial',
  'price prices pricing cost costs quote quotes value valuation worth',
  'currency currencies forex exchange rate rates usd eur dollar euro yuan yen',
  'earnings income revenue profit cashflow balance statement fundamentals dividend finance financial',
  'gold silver metal metals commodity commodities oil asset assets',
  'tax taxes irs vat deduction',
  'bank banking payment payments invoice invoices billing transaction transactions',
  // time and planning
  'time date today tomorrow yesterday now current clock timezone hour hours 24h',
  'calendar event events meeting meetings appointment appointments schedule scheduling reminder remind',
  'task tasks todo project projects plan planning planner',
  // weather and environment
  'weather forecast temperature rain snow wind precipitation humidity climate storm sunny 天气 气温 预报',
  'air quality pollution aqi smog',
  // travel and places
  'travel trip trips tour tours tourism vacation holiday itinerary journey destination sightseeing',
  'hotel hotels accommodation accommodations lodging homestay homestays airbnb hostel stay booking',
  'flight flights airline airlines airport plane',
  'train trains railway rail ticket tickets station 火车 高铁 车票 车站',
  'car cars vehicle vehicles automobile dealer',
  'restaurant restaurants dining eat eating dinner lunch breakfast cuisine food',
  'recipe recipes cook cooking dish dishes ingredient ingredients meal meals 菜谱 食谱 做菜 菜品',
  'map maps location locations place places address addresses geocode coordinates latitude longitude nearby 地图 位置 地点',
  'route routes direction directions navigation navigate distance commute',
  'parking park garage',
  'house houses home homes apartment apartments property properties estate rent rental renting landlord tenant housing mortgage',
  // work and learning
  'job jobs career careers hiring hire employment employer resume cv recruiter recruiting salary interview',
  'course courses learn learning lesson lessons tutorial tutorials teach teaching education class classes curriculum',
  'translate translation translator language languages 翻译',
  'paper papers article articles research academic scholar scholarly literature journal publication publications arxiv citation 论文 文章',
  'wikipedia encyclopedia wiki',
  'book books novel novels author reading ebook 图书 书籍 小说',
  // news and social
  'news headline headlines stories story breaking 新闻 资讯 快讯',
  'trend trends trending popular hot rank ranking 热榜 热搜 热门 排行 榜单',
  'twitter tweet tweets social media instagram facebook reddit',
  // health and science
  'health medical medicine disease diseases clinical trial trials drug drugs patient doctor symptom symptoms treatment biomedical',
  'gene genes genetic variant variants mutation dna protein',
  'fitness workout exercise nutrition diet calorie calories',
  // software
  'code coding programming program source snippet snippets developer',
  'github repository repositories repo repos',
  'package packages npm dependency dependencies library libraries module modules',
  'documentation docs reference manual',
  'git commit commits branch branches diff',
  'bug bugs error errors debug exception',
  'component components ui widget widgets button',
  // files and documents
  'file files folder folders directory directories',
  'document documents doc docx word',
  'spreadsheet spreadsheets excel sheet sheets workbook xlsx csv',
  'presentation presentations slide slides powerpoint ppt pptx deck',
  'pdf pdfs',
  'markdown md',
  'write save create store',
  'read open load view',
  // web
  'web website websites webpage page pages url urls link links site browser browse html',
  'search lookup query 搜索 查询',
  'screenshot screen capture',
  'scrape scraping crawl crawler extract extraction',
  // media
  'image images picture pictures photo photos photograph illustration',
  'video videos youtube clip clips movie movies film films 视频',
  'music song songs audio track tracks sound playlist album albums artist 音乐 歌曲',
  'chart charts graph graphs plot plots visualization visualize diagram diagrams',
  'draw drawing canvas paint sketch',
  'mindmap mind map',
  // shopping
  'shop shopping buy buying purchase product products store deal deals discount coupon amazon ecommerce 购物 商品 优惠',
  // games and fun
  'game games gaming play player players 游戏',
  'astrology horoscope horoscopes zodiac astrological',
  'dice random randomly pick choose lottery raffle shuffle',
  // numbers
  'calculate calculation calculator math compute arithmetic equation formula',
  // communication and memory
  'email emails mail inbox',
  'note notes memory memories remember memo',
  'chat message messages conversation',
  // security and networks
  'security vulnerability vulnerabilities scan audit malware',
  'domain domains whois dns ip registrar',
  'seo keyword keywords marketing ads advertising campaign traffic',
  'law laws legal lawyer attorney rights contract legislation regulation court',
  'sport sports football soccer basketball nba nfl league team teams match',
  // more everyday needs
  'website websites blog blogs wordpress cms publish',
  'movie movies film films tv television show shows series watch streaming netflix cinema 电影 电视剧 影视',
  'podcast podcasts episode episodes',
  'security threat threats malware phishing virus safe protect protection ssl hack hacker',
  'census population demographic demographics statistics statistic',
  'sql database databases query queries table tables',
  'deploy deployment deploying hosting launch',
  'gift gifts present presents birthday',
  'shirt shirts tshirt apparel clothing clothes hoodie fashion outfit wear',
  'hike hiking trail trails outdoor outdoors camping',
  'company companies business businesses corporation enterprise firm',
  'summary summaries summarize summarise summarization digest tldr',
  'rephrase rewrite paraphrase polish proofread',
  'question questions answer answers faq',
  'automate automation automated workflow workflows productivity efficient efficiency',
  'qr qrcode barcode',
  'pet pets dog dogs cat cats puppy',
  'plant plants garden gardening',
  'charity charities donation donations donate nonprofit',
  'art artwork artworks museum museums painting paintings gallery',
  'space nasa astronomy planet planets galaxy rover telescope',
  'ai llm gpt chatbot',
  'fuel petrol gasoline diesel',
  'wine sake beer drink drinks cocktail',
  'religion religious bible quran hadith prayer',
  'insurance claim claims policy',
  'credit loan loans mortgage debt',
  'phone call calls sms text',
  'social post posts share sharing',
  'font fonts typography ascii',
  'color colors colour palette',
  'timer countdown stopwatch alarm',
  'habit habits routine goal goals',
  'personality mbti test quiz',
  'dictionary definition define meaning synonym',
  'grammar spelling writing essay',
  'lyrics lyric song',
  'chord chords guitar piano instrument',
  'address postcode zip zipcode postal',
  'volume volumes sales sale',
  'transport transportation transit bus subway metro ferry taxi',
  'government gov federal dataset datasets agency',
  'technology tech gadget gadgets electronics digital 科技 数码',
];

const maps = new Map<boolean, Map<string, ReadonlySet<string>>>();

/** Each word's related words, in index form, with or without the broader words (each built once, on first use). */
function relatedMap(withBroader: boolean): Map<string, ReadonlySet<string>> {
  const cached = maps.get(withBroader);
  if (cached) return cached;
  const map = new Map<string, Set<string>>();
  const add = (term: string, others: readonly string[]): void => {
    const set = map.get(term) ?? new Set<string>();
    for (const other of others) if (other !== term) set.add(other);
    map.set(term, set);
  };
  for (const group of GROUPS) {
    const terms = [...new Set(tokenize(group))];
    for (const term of terms) add(term, terms);
  }
  for (const line of withBroader ? BROADER : []) {
    const [narrow = '', broad = ''] = line.split(':');
    const broader = [...new Set(tokenize(broad))];
    for (const term of new Set(tokenize(narrow))) add(term, broader);
  }
  maps.set(withBroader, map);
  return map;
}

/** The index-form words related to an index-form term (empty when it belongs to no group), and its broader words. */
export function relatedTerms(term: string, withBroader = true): ReadonlySet<string> {
  return relatedMap(withBroader).get(term) ?? new Set();
}
