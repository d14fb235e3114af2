"""Card texts for generated benchmark games, written for the bench in four languages.

Up to 10,000 cards, every rules text and flavour is distinct in its words (not
only in its numbers, which the language check ignores) and long enough for the
check to run on it (a text of a few words is not guessed), so a benchmark
measures detection on every string instead of skipping or reusing verdicts.
"""

from __future__ import annotations

ACTIONS = {
    "en": ["Draw {n} cards", "Steal {n} {treasure} from a rival", "Discard {n} cards from your hand",
           "Move {n} spaces forward on the board", "Look at the top {n} cards of the deck",
           "Give {n} coins to the player on your left", "Roll {n} extra dice in the next battle",
           "Add {n} points to your attack", "Take {n} cards back from the discard pile",
           "The player you choose skips {n} turns"],
    "ca": ["Agafa {n} cartes", "Roba {n} {treasure} a un rival", "Descarta {n} cartes de la teua mà",
           "Avança {n} caselles al tauler", "Mira les {n} primeres cartes del mall",
           "Dona {n} monedes al jugador de la teua esquerra", "Tira {n} daus més en la pròxima batalla",
           "Suma {n} punts al teu atac", "Recupera {n} cartes de la pila de descarts",
           "El jugador que tries perd {n} torns"],
    "es": ["Roba {n} cartas", "Quita {n} {treasure} a un rival", "Descarta {n} cartas de tu mano",
           "Avanza {n} casillas en el tablero", "Mira las {n} primeras cartas del mazo",
           "Da {n} monedas al jugador de tu izquierda", "Lanza {n} dados más en la próxima batalla",
           "Suma {n} puntos a tu ataque", "Recupera {n} cartas de la pila de descartes",
           "El jugador que elijas pierde {n} turnos"],
    "fr": ["Piochez {n} cartes", "Volez {n} {treasure} à un rival", "Défaussez {n} cartes de votre main",
           "Avancez de {n} cases sur le plateau", "Regardez les {n} premières cartes de la pioche",
           "Donnez {n} pièces au joueur à votre gauche", "Lancez {n} dés de plus lors de la prochaine bataille",
           "Ajoutez {n} points à votre attaque", "Reprenez {n} cartes de la défausse",
           "Le joueur de votre choix passe {n} tours"],
}
MOMENTS = {
    "en": ["at the start of your turn", "when a battle begins", "after you lose a fight",
           "whenever a rival plays a special card", "before the dice are rolled", "at the end of the round",
           "if you hold no treasures", "when the procession arrives", "while the bonfire is burning",
           "each time you win a battle"],
    "ca": ["al començament del teu torn", "quan comença una batalla", "després de perdre una lluita",
           "cada vegada que un rival juga una carta especial", "abans de tirar els daus", "al final de la ronda",
           "si no tens cap tresor", "quan arriba la processó", "mentre crema la foguera",
           "cada vegada que guanyes una batalla"],
    "es": ["al comienzo de tu turno", "cuando empieza una batalla", "después de perder una pelea",
           "cada vez que un rival juega una carta especial", "antes de lanzar los dados", "al final de la ronda",
           "si no tienes ningún tesoro", "cuando llega la procesión", "mientras arde la hoguera",
           "cada vez que ganas una batalla"],
    "fr": ["au début de votre tour", "quand une bataille commence", "après avoir perdu un combat",
           "chaque fois qu'un rival joue une carte spéciale", "avant le lancer des dés", "à la fin de la manche",
           "si vous n'avez aucun trésor", "quand la procession arrive", "pendant que le bûcher brûle",
           "chaque fois que vous gagnez une bataille"],
}
AFTERWARDS = {
    "en": ["and then shuffle the deck", "unless someone stops you", "but only once per game",
           "and tell everyone what you chose", "then pass the turn", "and keep this card in front of you",
           "even if you have already attacked", "and no one may answer", "and put this card under the deck",
           "then everybody draws a card"],
    "ca": ["i després barreja el mall", "tret que algú t'ho impedisca", "però només una vegada per partida",
           "i digues a tothom què has triat", "i després passa el torn", "i guarda aquesta carta davant teu",
           "encara que ja hages atacat", "i ningú no pot respondre", "i posa aquesta carta sota el mall",
           "i després tothom agafa una carta"],
    "es": ["y luego baraja el mazo", "a menos que alguien te lo impida", "pero solo una vez por partida",
           "y di a todos qué has elegido", "y luego pasa el turno", "y guarda esta carta delante de ti",
           "aunque ya hayas atacado", "y nadie puede responder", "y pon esta carta debajo del mazo",
           "y luego todos roban una carta"],
    "fr": ["puis mélangez la pioche", "sauf si quelqu'un vous en empêche", "mais une seule fois par partie",
           "et dites à tous ce que vous avez choisi", "puis passez votre tour", "et gardez cette carte devant vous",
           "même si vous avez déjà attaqué", "et personne ne peut répondre", "et placez cette carte sous la pioche",
           "puis chacun pioche une carte"],
}
NIGHT = {"en": "Night {i}: ", "ca": "Nit {i}: ", "es": "Noche {i}: ", "fr": "Nuit {i}\u202f: "}
STORIES = {
    "en": ["the whole street smelled of gunpowder and fried dough.", "nobody slept while the band kept playing.",
           "the old monument burned brighter than ever.", "a skeleton in a silk dress danced until dawn.",
           "the neighbours argued about the best paella again.", "the firecrackers woke every cat in the city.",
           "she hid the treasure under the floor of the workshop.", "the parade stopped because the drummer got lost.",
           "the fallera laughed and lit the last fuse.", "the ashes were still warm the next morning."],
    "ca": ["tot el carrer feia olor de pólvora i de bunyols.", "ningú no va dormir mentre la banda tocava.",
           "el vell monument va cremar més fort que mai.", "un esquelet amb vestit de seda va ballar fins a l'alba.",
           "els veïns van tornar a discutir sobre la millor paella.",
           "els petards van despertar tots els gats de la ciutat.", "va amagar el tresor sota el terra del taller.",
           "la desfilada es va aturar perquè el tambor s'havia perdut.",
           "la fallera va riure i va encendre l'última metxa.", "la cendra encara era calenta l'endemà al matí."],
    "es": ["toda la calle olía a pólvora y a buñuelos.", "nadie durmió mientras la banda seguía tocando.",
           "el viejo monumento ardió más fuerte que nunca.", "un esqueleto con vestido de seda bailó hasta el amanecer.",
           "los vecinos volvieron a discutir sobre la mejor paella.",
           "los petardos despertaron a todos los gatos de la ciudad.", "escondió el tesoro bajo el suelo del taller.",
           "el desfile se detuvo porque el tambor se había perdido.", "la fallera se rió y encendió la última mecha.",
           "la ceniza aún estaba caliente a la mañana siguiente."],
    "fr": ["toute la rue sentait la poudre et les beignets.", "personne n'a dormi tant que la fanfare jouait.",
           "le vieux monument a brûlé plus fort que jamais.", "un squelette en robe de soie a dansé jusqu'à l'aube.",
           "les voisins se sont encore disputés sur la meilleure paella.",
           "les pétards ont réveillé tous les chats de la ville.", "elle a caché le trésor sous le plancher de l'atelier.",
           "le défilé s'est arrêté parce que le tambour s'était perdu.", "la fallera a ri et a allumé la dernière mèche.",
           "les cendres étaient encore chaudes le lendemain matin."],
}


REACTIONS = {
    "en": ["The crowd cheers.", "Nobody notices.", "The band plays louder.", "Your rivals grumble.",
           "The fire grows taller.", "A rocket bursts overhead.", "The mayor frowns.", "Everyone laughs.",
           "The drums fall silent.", "Smoke fills the square."],
    "ca": ["La gent aplaudeix.", "Ningú no se n'adona.", "La banda toca més fort.", "Els teus rivals remuguen.",
           "El foc creix encara més.", "Un coet esclata damunt vostre.", "L'alcalde arrufa les celles.",
           "Tothom riu.", "Els tambors callen.", "El fum omple la plaça."],
    "es": ["La gente aplaude.", "Nadie se da cuenta.", "La banda toca más fuerte.", "Tus rivales refunfuñan.",
           "El fuego crece todavía más.", "Un cohete estalla sobre vosotros.", "El alcalde frunce el ceño.",
           "Todo el mundo se ríe.", "Los tambores se callan.", "El humo llena la plaza."],
    "fr": ["La foule applaudit.", "Personne ne s'en aperçoit.", "La fanfare joue plus fort.", "Vos rivaux grognent.",
           "Le feu grandit encore.", "Une fusée éclate au-dessus de vous.", "Le maire fronce les sourcils.",
           "Tout le monde rit.", "Les tambours se taisent.", "La fumée remplit la place."],
}


def rules(i: int, locale: str) -> str:
    """Card ``i``'s rules text: its words differ for every ``i`` below 10,000."""
    action = ACTIONS[locale][i % 10].replace("{n}", str(1 + i // 1000))
    return (f"{action} {MOMENTS[locale][i // 10 % 10]}, {AFTERWARDS[locale][i // 100 % 10]}. "
            f"{REACTIONS[locale][i // 1000 % 10]}")


def flavour(i: int, locale: str) -> str:
    """Card ``i``'s flavour: its words differ for every ``i`` below 10,000."""
    first, second = STORIES[locale][i % 10], STORIES[locale][i // 100 % 10]
    return (NIGHT[locale].format(i=i) + f"{first} {REACTIONS[locale][i // 10 % 10]} {second[0].upper()}{second[1:]} "
            f"{REACTIONS[locale][(i // 1000 + 3) % 10]}")
