"""Word lists for the synthetic belief corpus (benchmarks/corpus.py).

Each list is in rough order of popularity: the corpus draws from it with
Zipf-like weights (1 / rank), so the first entries are common and the tail is
rare, as in real memory banks. Nothing here is downloaded or read from disk.
"""


def _words(text: str) -> tuple[str, ...]:
    return tuple(line.strip() for line in text.replace(",", "\n").splitlines() if line.strip())


FIRST_NAMES = _words(
    """
    Anna, James, Maria, David, Sarah, Michael, Emma, Daniel, Laura, Tom, Sophie, Ben, Julia,
    Alex, Olivia, Chris, Mia, Sam, Hannah, Lucas, Grace, Noah, Chloe, Ethan, Lily, Leo, Zoe,
    Oliver, Ella, Jack, Isla, Harry, Amelia, George, Ava, Oscar, Ruby, Charlie, Freya, Henry,
    Alice, Jacob, Evie, Max, Rosie, Adam, Jessica, Luke, Emily, Ryan, Megan, Matthew, Holly,
    Nathan, Lucy, Joe, Amy, Dan, Katie, Josh, Rachel, Will, Beth, Ollie, Caitlin, Finn, Abby,
    Theo, Nina, Felix, Clara, Hugo, Elena, Marco, Giulia, Luca, Sofia, Matteo, Francesca,
    Pierre, Camille, Julien, Manon, Antoine, Chloé, Lars, Ingrid, Sven, Astrid, Erik, Freja,
    Jonas, Lena, Tobias, Katrin, Lukas, Anja, Jan, Petra, Tomas, Eva, Pavel, Marta, Piotr,
    Kasia, Ivan, Olga, Dmitri, Natasha, Ahmed, Fatima, Omar, Layla, Yusuf, Aisha, Hassan,
    Mariam, Ali, Zainab, Raj, Priya, Arjun, Ananya, Vikram, Neha, Rahul, Divya, Sanjay,
    Kavya, Wei, Mei, Jun, Lin, Hiroshi, Yuki, Kenji, Aiko, Takeshi, Sakura, Min, Ji-woo,
    Hyun, Seo-yeon, Carlos, Lucia, Diego, Valentina, Mateo, Camila, Javier, Isabella,
    Pablo, Gabriela, Miguel, Ana, Joao, Beatriz, Rafael, Mariana, Kwame, Ama, Kofi, Abena,
    Chidi, Ngozi, Tunde, Folake, Amara, Emeka, Sipho, Thandi, Liam, Niamh, Sean, Aoife,
    Cian, Siobhan, Rory, Orla, Callum, Eilidh, Fraser, Morag, Dylan, Seren, Rhys, Cerys,
    Aaron, Naomi, Eli, Miriam, Isaac, Leah, Caleb, Ruth, Gideon, Esther, Owen, Harriet,
    Arthur, Florence, Alfie, Matilda, Archie, Phoebe, Reggie, Imogen, Stanley, Edith,
    Wilbur, Mabel, Frank, Dorothy, Walter, Margaret, Harold, Betty, Ernest, Joan, Vincent,
    Rosa, Bruno, Greta, Otto, Hilde, Emil, Frida, Anton, Signe, Nils, Maja, Rune, Tove,
    Ilya, Vera, Boris, Nadia, Stefan, Irina, Mirela, Bogdan, Zora, Goran, Milena, Darko,
    Kai, Nalani, Keanu, Leilani, Mateus, Yara, Tariq, Samira, Karim, Nour, Bilal, Huda
    """
)

SURNAMES = _words(
    """
    Smith, Patel, Jones, Garcia, Nguyen, Müller, Rossi, Kim, Williams, Brown, Tanaka, Silva,
    Kowalski, Novak, Hansen, Murphy, Okafor, Singh, Chen, Martin, Dubois, Schmidt, Lopez,
    Andersson, Ivanova, Haddad, Cohen, Walsh, Fraser, Evans, Morgan, Reyes, Costa, Weber,
    Fischer, Bianchi, Moreau, Lindqvist, Virtanen, Horvat, Popescu, Yilmaz, Mensah, Adeyemi,
    Khan, Sato, Park, Wong, Clarke, Hughes
    """
)

RELATIONS = _words(
    """
    partner, mother, father, sister, brother, best friend, friend, colleague, wife, husband,
    daughter, son, cousin, neighbour, manager, aunt, uncle, grandmother, grandfather, niece,
    nephew, flatmate, mentor, coach, boss, team lead, landlord, godmother, stepfather,
    sister-in-law, brother-in-law, mother-in-law, father-in-law, childhood friend,
    former colleague, running buddy, climbing partner, bandmate, tutor, therapist
    """
)

CITIES = _words(
    """
    London, Berlin, Paris, New York, Lisbon, Barcelona, Amsterdam, Tokyo, Madrid, Rome,
    Dublin, Edinburgh, Manchester, Copenhagen, Stockholm, Vienna, Prague, Munich, Zurich,
    Toronto, Chicago, San Francisco, Seattle, Boston, Sydney, Melbourne, Singapore, Bangkok,
    Seoul, Kyoto, Osaka, Hamburg, Milan, Florence, Naples, Valencia, Seville, Porto, Lyon,
    Marseille, Bordeaux, Brussels, Antwerp, Rotterdam, Utrecht, Oslo, Bergen, Helsinki,
    Tallinn, Riga, Vilnius, Warsaw, Krakow, Budapest, Bratislava, Ljubljana, Zagreb, Split,
    Athens, Thessaloniki, Istanbul, Cairo, Marrakesh, Cape Town, Nairobi, Lagos, Accra,
    Johannesburg, Dubai, Doha, Mumbai, Delhi, Bangalore, Chennai, Kolkata, Kathmandu,
    Colombo, Hanoi, Saigon, Manila, Jakarta, Bali, Kuala Lumpur, Hong Kong, Taipei,
    Shanghai, Beijing, Auckland, Wellington, Brisbane, Perth, Vancouver, Montreal, Calgary,
    Denver, Austin, Portland, Los Angeles, San Diego, Miami, Atlanta, Nashville, New Orleans,
    Philadelphia, Washington, Minneapolis, Detroit, Mexico City, Oaxaca, Bogota, Medellin,
    Lima, Cusco, Santiago, Buenos Aires, Montevideo, Rio, Sao Paulo, Havana, Reykjavik,
    Glasgow, Cardiff, Belfast, Bristol, Leeds, Liverpool, Brighton, Oxford, Cambridge, York,
    Bath, Norwich, Sheffield, Newcastle, Nottingham, Leicester, Cork, Galway, Geneva, Basel,
    Lausanne, Salzburg, Innsbruck, Graz, Cologne, Frankfurt, Stuttgart, Dresden, Leipzig,
    Freiburg, Heidelberg, Bologna, Turin, Verona, Venice, Palermo, Granada, Malaga, Bilbao,
    San Sebastian, Nice, Toulouse, Strasbourg, Nantes, Lille, Ghent, Bruges, Aarhus, Malmo,
    Gothenburg, Uppsala, Trondheim, Tampere, Gdansk, Wroclaw, Brno, Sofia, Bucharest,
    Belgrade, Sarajevo, Tirana, Valletta, Nicosia, Tbilisi, Yerevan, Baku, Almaty, Tashkent
    """
)

COUNTRIES = _words(
    """
    Portugal, Spain, Italy, France, Japan, Germany, Greece, Iceland, Norway, Mexico, Canada,
    Scotland, Ireland, Thailand, Vietnam, Morocco, Croatia, Austria, Switzerland, Sweden,
    Denmark, Finland, Netherlands, Belgium, Poland, Czechia, Hungary, Slovenia, Turkey,
    Egypt, Kenya, Tanzania, Ghana, Nigeria, India, Nepal, Indonesia, Malaysia, Philippines,
    Australia, Chile, Peru, Argentina, Brazil, Colombia, Cuba, Jamaica, Costa Rica, Georgia,
    Armenia, Jordan, Oman, Korea, Taiwan, Mongolia, Estonia, Latvia, Lithuania, Romania,
    Bulgaria, Albania, Montenegro, Malta, Cyprus, Tunisia, Namibia, Botswana, Madagascar
    """
)

VENUES = _words(
    """
    office, gym, park, library, station, supermarket, cafe, river, beach, lake, market,
    university, hospital, school, stadium, harbour, airport, cathedral, museum, theatre,
    cinema, bakery, pharmacy, climbing wall, swimming pool, community garden, bookshop,
    farmers market, town hall, train station, bus stop, playground, dog park, allotment,
    co-working space, ice rink, bowling alley, golf course, tennis club, marina
    """
)

DEVICE_BRANDS_MODELS = _words(
    """
    iPhone 15, Apple Watch, MacBook Air, iPad Pro, AirPods Pro, Pixel 8, Galaxy S23,
    Kindle Paperwhite, Garmin Forerunner 255, Fitbit Charge 6, MacBook Pro, ThinkPad X1,
    Dell XPS 13, Nintendo Switch, PlayStation 5, Xbox Series X, Steam Deck, Sonos One,
    Bose QuietComfort, Sony WH-1000XM5, GoPro Hero, DJI Mini drone, Canon EOS R6,
    Fujifilm X100V, Nikon Z6, Raspberry Pi, Surface Laptop, Chromebook, Galaxy Tab,
    Oura Ring, Garmin Fenix 7, Whoop band, Kobo Libra, reMarkable tablet, Meta Quest 3,
    Nest thermostat, Ring doorbell, Roomba vacuum, Dyson vacuum, Instant Pot, Thermomix,
    Nespresso machine, Vitamix blender, KitchenAid mixer, air fryer, espresso machine,
    Peloton bike, Wahoo Kickr, Theragun, Polar Vantage, Coros Pace, OnePlus 12, Moto G,
    Nothing Phone, Fairphone 5, Pixel Watch, Galaxy Watch, Echo Dot, HomePod mini,
    Google Nest Hub, Philips Hue lights, Logitech MX Master, Keychron keyboard,
    LG OLED television, Samsung Frame television, Epson projector, Brother printer,
    Synology NAS, Eero router, Tile tracker, AirTag, Anker power bank, JBL speaker,
    Marshall amplifier, Yamaha keyboard, Fender Stratocaster, Korg synthesizer,
    Rode microphone, Blue Yeti microphone, Elgato Stream Deck, Wacom tablet, Cricut machine,
    Prusa 3D printer, Bambu Lab printer, Traeger grill, Weber barbecue, Ooni pizza oven,
    SodaStream, Brita filter, Tesla Powerwall, Ecoflow battery, Jackery generator
    """
)

STORES = _words(
    """
    Amazon, the Apple Store, Currys, Best Buy, MediaMarkt, John Lewis, Costco, IKEA,
    a second-hand shop, eBay, Argos, Fnac, Decathlon, a local repair shop, Back Market,
    Target, Walmart, Elkjop, Saturn, Boulanger
    """
)

VEHICLES = _words(
    """
    Toyota Corolla, Honda Civic, Volkswagen Golf, Tesla Model 3, Subaru Outback,
    Ford Focus, Mazda CX-5, Toyota Prius, Skoda Octavia, Volvo XC60, Toyota RAV4,
    Honda CR-V, Nissan Leaf, Kia Niro, Hyundai Ioniq 5, BMW 3 Series, Audi A4,
    Mercedes C-Class, Fiat 500, Mini Cooper, Renault Clio, Peugeot 208, Citroen Berlingo,
    Ford Transit van, Volkswagen California camper, Land Rover Defender, Jeep Wrangler,
    Ford F-150, Chevrolet Bolt, Polestar 2, Kia Sportage, Hyundai Tucson, Dacia Duster,
    Seat Ibiza, Opel Astra, Suzuki Swift, Mitsubishi Outlander, Lexus RX, Porsche Macan,
    Tesla Model Y, Volkswagen ID.4, BYD Atto 3, Mazda MX-5, Subaru Forester, Toyota Yaris,
    Honda Jazz, Nissan Qashqai, Skoda Enyaq, Volvo V60, Saab 900
    """
)

BIKES = _words(
    """
    Brompton folding bike, Trek road bike, Specialized gravel bike, Cannondale mountain bike,
    cargo bike, Vanmoof e-bike, Giant hybrid bike, fixed-gear bike, Vespa scooter,
    Yamaha motorbike, Ducati Monster, Triumph Bonneville, Honda CB500, electric scooter,
    tandem bike, Canyon road bike, Surly touring bike, Rad Power e-bike, Kawasaki Ninja,
    BMW GS motorbike
    """
)

COLORS = _words(
    """
    black, white, silver, grey, blue, red, green, navy, dark green, yellow, orange, burgundy,
    beige, teal, purple, pink, brown, gold, olive, turquoise, charcoal, cream, mustard, lilac
    """
)

PET_SPECIES_BREEDS = (
    (
        "dog",
        _words(
            """
            labrador, golden retriever, border collie, beagle, dachshund, cocker spaniel,
            french bulldog, poodle, corgi, greyhound, whippet, husky, german shepherd,
            jack russell, schnauzer, shiba inu, pug, boxer, dalmatian, vizsla, staffie,
            bernese mountain dog, cavapoo, labradoodle, rescue mutt
            """
        ),
    ),
    (
        "cat",
        _words(
            """
            tabby, siamese, maine coon, british shorthair, ragdoll, bengal, persian,
            sphynx, norwegian forest cat, tortoiseshell, black cat, ginger cat, burmese
            """
        ),
    ),
    ("rabbit", _words("lop-eared rabbit, dwarf rabbit, lionhead rabbit, rex rabbit")),
    ("parrot", _words("budgie, cockatiel, african grey, lovebird, conure")),
    ("hamster", _words("syrian hamster, dwarf hamster, roborovski hamster")),
    ("tortoise", _words("hermann's tortoise, russian tortoise, leopard tortoise")),
    ("fish", _words("goldfish, betta, guppies, koi, neon tetras")),
    ("horse", _words("welsh pony, arabian horse, shetland pony, thoroughbred")),
    ("guinea pig", _words("abyssinian guinea pig, teddy guinea pig")),
    ("lizard", _words("bearded dragon, leopard gecko, crested gecko")),
)

PET_NAMES = _words(
    """
    Luna, Max, Bella, Charlie, Milo, Daisy, Bailey, Coco, Rocky, Nala, Simba, Lola, Teddy,
    Willow, Oreo, Pepper, Biscuit, Mochi, Ziggy, Pickles, Waffles, Buster, Maple, Olive,
    Hazel, Poppy, Juniper, Rufus, Bruno, Ginger, Smokey, Shadow, Tiger, Felix, Misty, Jasper,
    Loki, Thor, Freya, Odin, Pippin, Frodo, Gandalf, Yoda, Chewie, Leia, Pumpkin, Noodle,
    Dumpling, Tofu, Sushi, Nugget, Peanut, Cookie, Muffin, Bean, Kiwi, Mango, Fig, Clover,
    Basil, Sage, Rosemary, Marmalade, Fudge, Toffee, Caramel, Cinnamon, Nutmeg, Pretzel,
    Bagel, Scout, Ranger, Hunter, Ace, Duke, Duchess, Princess, Queenie, Baron, Ludwig,
    Mozart, Chopin, Elvis, Dolly, Marley, Bowie, Ozzy, Ringo, Lennon, Banjo, Zeus, Apollo,
    Athena, Cleo, Nemo, Dory, Bubbles, Sparky, Blue, Storm, Ember, Ash, Birch, Aspen
    """
)

FOODS = _words(
    """
    pizza, sushi, ramen, pasta, curry, tacos, dumplings, pho, burgers, salad, lasagna,
    risotto, paella, falafel, hummus, shakshuka, croissants, sourdough bread, bagels,
    pancakes, waffles, porridge, granola, avocado toast, eggs benedict, dim sum, pad thai,
    green curry, massaman curry, tikka masala, dal, biryani, samosas, dosa, butter chicken,
    kimchi, bibimbap, bulgogi, katsu curry, tempura, udon, soba, gyoza, okonomiyaki,
    burritos, enchiladas, quesadillas, ceviche, empanadas, arepas, feijoada, goulash,
    pierogi, borscht, schnitzel, bratwurst, pretzels, moussaka, souvlaki, gyros, spanakopita,
    tagine, couscous, jollof rice, injera, bobotie, fish and chips, shepherd's pie,
    sunday roast, steak, roast chicken, lamb chops, pork belly, salmon, tuna, mackerel,
    sardines, mussels, oysters, prawns, lobster, crab, tofu, tempeh, seitan, lentil soup,
    minestrone, gazpacho, tomato soup, mushroom soup, chili, stew, pot pie, mac and cheese,
    grilled cheese, club sandwich, banh mi, poke bowls, burrito bowls, buddha bowls,
    ice cream, gelato, cheesecake, tiramisu, brownies, carrot cake, apple pie, baklava,
    churros, mochi, doughnuts, cinnamon rolls, dark chocolate, popcorn, crisps, nachos,
    olives, feta, halloumi, brie, camembert, gouda, parmesan, mozzarella, goat cheese,
    blue cheese, mushrooms, aubergine, courgette, spinach, kale, broccoli, cauliflower,
    brussels sprouts, asparagus, beetroot, sweet potatoes, peppers, tomatoes, coriander,
    cilantro, garlic, onions, chillies, ginger, lemongrass, peanuts, cashews, almonds,
    walnuts, strawberries, blueberries, raspberries, mangoes, bananas, apples, pears,
    peaches, cherries, figs, dates, pomegranate, grapefruit, watermelon, pineapple, kiwi,
    lychee, durian, jackfruit, okra, plantain, cassava, quinoa, bulgur, polenta, gnocchi,
    ravioli, carbonara, pesto, bolognese, arrabbiata, cacio e pepe, focaccia, bruschetta,
    antipasti, tapas, patatas bravas, tortilla, croquetas, jamon, chorizo, manchego
    """
)

CUISINES = _words(
    """
    Italian, Japanese, Thai, Indian, Mexican, Vietnamese, Korean, Chinese, Lebanese, Greek,
    Spanish, French, Ethiopian, Turkish, Moroccan, Peruvian, Georgian, Sichuan, Cantonese,
    Malaysian, Indonesian, Sri Lankan, Nepalese, Persian, Portuguese, Brazilian, Caribbean,
    Nigerian, Polish, Hungarian, Scandinavian, Basque, Tex-Mex, Cajun, Hawaiian
    """
)

DRINKS = _words(
    """
    coffee, tea, flat white, espresso, oat milk latte, cappuccino, green tea, matcha, chai,
    cold brew, herbal tea, earl grey, sparkling water, orange juice, kombucha, hot chocolate,
    red wine, white wine, rosé, craft beer, lager, stout, cider, gin and tonic, whisky,
    negroni, aperol spritz, margarita, mojito, smoothies, protein shakes, rooibos,
    peppermint tea, decaf coffee, yerba mate, iced tea, lemonade, ginger beer
    """
)

ALLERGENS = _words(
    """
    peanuts, shellfish, gluten, lactose, tree nuts, eggs, soy, sesame, penicillin, cats,
    pollen, dust mites, bee stings, latex, mustard, celery, kiwi, strawberries, ibuprofen,
    horses
    """
)

DIETS = _words(
    """
    vegetarian, vegan, pescatarian, gluten-free, low-carb, dairy-free, halal, kosher,
    Mediterranean, flexitarian, keto, paleo, low-sodium, high-protein
    """
)

HOBBIES = _words(
    """
    running, cycling, swimming, hiking, yoga, climbing, bouldering, photography, cooking,
    baking, gardening, reading, painting, knitting, chess, guitar, piano, birdwatching,
    camping, skiing, snowboarding, surfing, sailing, kayaking, rowing, tennis, badminton,
    squash, football, basketball, volleyball, cricket, rugby, golf, fishing, woodworking,
    pottery, sewing, embroidery, calligraphy, drawing, sketching, journaling, blogging,
    podcasting, gaming, board games, crosswords, sudoku, jigsaw puzzles, origami, juggling,
    magic tricks, stand-up comedy, improv, acting, singing, choir, dancing, salsa, tango,
    ballet, pilates, crossfit, weightlifting, boxing, karate, judo, taekwondo, fencing,
    archery, horse riding, trail running, marathon training, triathlon, open-water swimming,
    paddleboarding, windsurfing, kitesurfing, scuba diving, snorkelling, caving, foraging,
    beekeeping, brewing beer, winemaking, fermenting, sourdough baking, cheese making,
    coffee roasting, astronomy, stargazing, geocaching, metal detecting, model trains,
    model aircraft, drone flying, robotics, coding, electronics, 3D printing, lockpicking,
    genealogy, language learning, volunteering, bird photography, street photography,
    film photography, vinyl collecting, stamp collecting, coin collecting, urban sketching,
    watercolour painting, oil painting, wood carving, leatherwork, bookbinding, quilting,
    crochet, macrame, candle making, soap making, bonsai, houseplants, aquascaping,
    birding, bouldering competitions, parkrun, orienteering, fell running, ultrarunning
    """
)

INSTRUMENTS = _words(
    """
    guitar, piano, violin, cello, drums, ukulele, bass guitar, saxophone, trumpet, flute,
    clarinet, harmonica, banjo, mandolin, accordion, harp, trombone, oboe, synthesizer,
    double bass
    """
)

LANGUAGES = _words(
    """
    Spanish, French, German, Italian, Japanese, Portuguese, Mandarin, Korean, Dutch, Arabic,
    Swedish, Norwegian, Danish, Polish, Russian, Greek, Turkish, Hindi, Cantonese, Welsh,
    Irish, Icelandic, Finnish, Hungarian, Czech, Vietnamese, Thai, Swahili, Hebrew, Catalan,
    Basque, Croatian, Ukrainian, Tagalog, Indonesian, Esperanto, Latin
    """
)

MUSIC_GENRES = _words(
    """
    jazz, indie rock, classical music, hip hop, techno, folk, pop, metal, punk, blues,
    soul, funk, reggae, ambient, drum and bass, house music, country, bluegrass, opera,
    k-pop, afrobeats, bossa nova, lo-fi beats, synthwave, post-rock, grunge, disco,
    flamenco, fado, salsa music, film scores, baroque music, minimalism, shoegaze
    """
)

BOOK_GENRES = _words(
    """
    science fiction, fantasy, crime, thriller, historical fiction, romance, literary fiction,
    horror, mystery, biography, memoir, poetry, graphic novels, travel writing, philosophy,
    popular science, self-help, true crime, cookbooks, short stories, young adult, classics
    """
)

JOBS = _words(
    """
    software engineer, teacher, nurse, product manager, designer, accountant, doctor,
    data scientist, architect, lawyer, marketing manager, project manager, chef,
    pharmacist, physiotherapist, journalist, researcher, consultant, electrician, plumber,
    carpenter, graphic designer, UX researcher, civil engineer, mechanical engineer,
    veterinarian, dentist, paramedic, firefighter, police officer, social worker,
    psychologist, librarian, translator, photographer, musician, barista, baker,
    sales manager, recruiter, HR manager, financial analyst, economist, statistician,
    lecturer, professor, PhD student, lab technician, midwife, surgeon, radiographer,
    optometrist, speech therapist, occupational therapist, personal trainer, yoga teacher,
    flight attendant, pilot, air traffic controller, train driver, bus driver, courier,
    shop manager, restaurant owner, hotel manager, event planner, travel agent,
    real estate agent, mortgage adviser, insurance broker, tax adviser, auditor,
    compliance officer, data engineer, DevOps engineer, security engineer, QA engineer,
    game developer, web developer, mobile developer, technical writer, copywriter, editor,
    publisher, illustrator, animator, video editor, sound engineer, film director,
    producer, actor, dancer, florist, landscape gardener, farmer, winemaker, brewer,
    beekeeper, carpenter's apprentice, mechanic, welder, tiler, painter and decorator,
    locksmith, tailor, hairdresser, beautician, tattoo artist, civil servant, diplomat,
    policy adviser, charity fundraiser, community organiser, school counsellor,
    head teacher, teaching assistant, nursery worker, childminder, care worker
    """
)

COMPANY_HEADS = _words(
    """
    Northwind, Bluefin, Ironbridge, Greenleaf, Silverline, Redwood, Brightwater, Stonegate,
    Fairfield, Oakhurst, Clearview, Highland, Riverside, Summit, Harbourview, Maplewood,
    Lighthouse, Blackbird, Kestrel, Juniper, Evergreen, Copperfield, Westbrook, Eastgate,
    Goldcrest, Starling, Foxglove, Thistle, Heron, Cobalt
    """
)

COMPANY_TAILS = _words(
    """
    Labs, Health, Logistics, Bank, Studio, Systems, Foods, Energy, Insurance, Media,
    Analytics, Robotics, Architects, Partners, Consulting, Software, Pharma, Schools,
    Hospital, Council
    """
)

MONTHS = _words(
    """
    January, February, March, April, May, June, July, August, September, October,
    November, December
    """
)

WEEKDAYS = _words("Monday, Tuesday, Wednesday, Thursday, Friday, Saturday, Sunday")

SEASONS = _words("summer, spring, autumn, winter")

ROOMS = _words(
    """
    kitchen, bathroom, living room, garden, bedroom, spare room, attic, basement, garage,
    hallway, loft, balcony, shed, home office, utility room, conservatory
    """
)

RACES = _words(
    """
    half marathon, marathon, 10k, parkrun, triathlon, sprint triathlon, ultramarathon,
    cycling sportive, open-water swim, trail race, relay, duathlon, obstacle race
    """
)

EXAMS = _words(
    """
    driving, IELTS, CFA level one, bar, DELF, JLPT N3, AWS certification, PMP, ACCA,
    medical licensing, pilot's licence, first aid, scuba certification, sommelier, CELTA
    """
)

PREFERENCE_OPTIONS = _words(
    """
    metric units, window seats on flights, aisle seats on trains, dark mode, morning meetings,
    email over phone calls, short answers, detailed explanations, early flights, late dinners,
    Celsius, 24-hour time, paper books over e-books, public transport over driving,
    remote work on Fridays, quiet carriages, bullet points, British spelling,
    vegetarian options, decaf after noon, cash over cards, hotels near the centre,
    text messages over voice notes, podcasts at double speed, subtitles on films,
    standing desks, mechanical keyboards, physical maps, handwritten notes, cold showers,
    walking meetings, weekly summaries, spreadsheets over slides, trains over planes
    """
)

ACTIVITIES = _words(
    """
    commuting, work calls, running, note taking, reading at night, editing photos,
    video calls, navigation, listening to podcasts, tracking sleep, sketching,
    writing, gaming, cooking, watching films, recording music, home workouts,
    language lessons, budgeting, journaling
    """
)

PROBLEMS = _words(
    """
    drained overnight, kept overheating, stopped charging, died after a week, swelled,
    would not hold a charge, lost its pairing, cracked in the cold, froze on updates,
    made a buzzing noise
    """
)

REASONS = _words(
    """
    a strike, the weather, a family emergency, work deadlines, a broken ankle, the flu,
    a passport problem, a cancelled flight, budget worries, a wedding, a house move,
    a new job, a storm
    """
)

SUBSCRIPTIONS = _words(
    """
    Spotify, Netflix, the gym, Audible, a meal kit, cloud storage, a newspaper, Duolingo,
    YouTube Premium, a VPN, a wine club, a coffee subscription, a climbing membership,
    a car-sharing club, a password manager, Strava, a language tutor
    """
)

APPOINTMENTS = _words(
    """
    dentist, physio, GP, optician, therapist, haircut, dermatologist, vet, allergy clinic,
    orthodontist, podiatrist, chiropractor
    """
)

SERVICES = _words(
    """
    an oil change, new tyres, a service, new brake pads, an MOT, a battery check,
    a wheel alignment, a valet, new wiper blades
    """
)

SUBJECTS_STUDIED = _words(
    """
    computer science, history, biology, economics, English literature, mathematics, physics,
    chemistry, law, medicine, philosophy, psychology, architecture, music, geography,
    politics, sociology, fine art, nursing, engineering, linguistics, anthropology
    """
)

CONDITIONS = _words(
    """
    asthma, hay fever, migraines, eczema, a bad knee, lower back pain, tinnitus,
    a dodgy shoulder, high blood pressure, short-sightedness, plantar fasciitis
    """
)

LIKES = _words(
    """
    likes, loves, enjoys, really likes, is fond of, is a big fan of, can't get enough of,
    is obsessed with
    """
)

QUALIFIERS = _words(
    """
    since {year}, according to {person}, on weekends, when travelling for work,
    as of last {season}, at least for now, after the move to {city}, most of the time,
    especially in {season}, when {person} visits, before big meetings, on holiday,
    after {hobby}, every {weekday}, since the pandemic, whenever possible,
    when working from home, during {month}, on long drives, after the kids are asleep
    """
)
