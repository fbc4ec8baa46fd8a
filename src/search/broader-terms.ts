// Broader words (hypernyms) of everyday specific words: a request names the thing ("a laptop", "Litecoin", "the
// directors of Tesco"), a tool names the category ("products", "cryptocurrencies", "companies"). Unlike the groups of
// related-terms.ts this goes one way only: "laptop" also searches for "product", but "product" does not search for
// every kind of product. General English, kept to common nouns and names of categories; written while reading the
// misses of one half of the MetaTool dev tools (the other half measures how well it carries over, see the README).

/** Each line: specific words, a colon, then the broader words they also search for. */
export const BROADER: readonly string[] = [
  // things people buy
  'smartphone smartphones iphone android laptop laptops tablet tablets ipad headphones headphone earbuds earphones keyboard keyboards tv tvs television televisions camera cameras playstation xbox charger chargers smartwatch smartwatches printer printers: electronics gadget product shopping',
  'sofa sofas couch couches chair chairs desk desks bed beds mattress mattresses furniture lamp lamps rug rugs bookshelf wardrobe: furniture home product shopping',
  'blender blenders vacuum vacuums microwave fridge refrigerator oven dishwasher washer dryer appliance appliances kettle toaster coffeemaker: appliance kitchen home product shopping',
  'shoes shoe sneakers boots sandals dress dresses skirt jacket jackets jeans trousers pants coat coats handbag handbags backpack sunglasses jewelry jewellery necklace: clothing fashion apparel product shopping',
  'clothing clothes outfit outfits apparel: fashion product shopping',
  'arduino raspberry microcontroller: electronics product shopping',
  'cosmetics makeup skincare lipstick perfume fragrance shampoo moisturizer serum: beauty product shopping',
  'toy toys lego doll dolls puzzle puzzles: gift product shopping',
  'affordable cheap cheaper cheapest inexpensive budget bargain bargains: price discount deal',
  // money
  'litecoin ltc dogecoin doge solana ripple xrp cardano tether usdt usdc bnb polkadot altcoin altcoins stablecoin stablecoins: cryptocurrency crypto coin finance',
  'etf etfs bond bonds dividend dividends volatility: stock investment finance',
  'inflation recession gdp unemployment economy economic: finance economics',
  'shareholder shareholders liabilities capitalization filings: company finance',
  // organizations
  'ceo ceos cfo founder founders director directors headquarters subsidiary subsidiaries employees inc corp corporation llc ltd plc startup startups: company business',
  // learning and research
  'study studies experiment experiments thesis dissertation scientific science scientists: research paper academic',
  'historical ancient medieval empire empires dynasty dynasties: history',
  // travel and food
  'landmark landmarks sightseeing monument monuments tourist tourists itinerary excursion excursions: travel tourism trip',
  'vegan vegetarian gluten keto paleo: diet food recipe',
  'cafe cafes bistro pizzeria bakery pub pubs: restaurant food',
  // health and mind
  'meditation anxiety depression therapy therapist wellbeing: mental health',
  'lawsuit lawsuits statute statutes attorney attorneys tenant lease: law legal',
];
