"""Everyday sentences in Chinese and English, on many topics: the background an embedding
model's common direction is measured on (``e5.E5OnnxEmbedder``: the mean of their vectors).
Neither memories nor benchmark data; any varied everyday text would serve."""

SENTENCES = [
    "我今天早上七点起床，吃了一碗面条。", "周末我和朋友去爬山了，风景很美。", "这家餐厅的火锅很辣，但是很好吃。",
    "我的电脑坏了，明天要拿去修。", "妈妈打电话问我什么时候回家过年。", "公司下个月要搬到新的办公楼。",
    "昨天晚上下了很大的雨，路上都是水。", "我正在学习弹吉他，手指很疼。", "孩子们在公园里踢足球。",
    "她最喜欢的颜色是蓝色。", "我们计划明年夏天去日本旅行。", "医生说我应该多喝水、早点睡觉。",
    "这本小说讲的是一个侦探的故事。", "超市里的苹果今天打折。", "他每天骑自行车上班，大约二十分钟。",
    "我养了一只小猫，叫咪咪。", "会议推迟到下午三点了。", "今年的考试比去年难多了。",
    "奶奶在院子里种了很多西红柿。", "我觉得这部电影有点无聊。", "地铁站离我家很近，走路五分钟。",
    "他们在讨论新项目的预算。", "冬天的时候我喜欢喝热巧克力。", "我的手机没电了，借你的充电器用一下。",
    "朋友送了我一本关于历史的书。", "我们班下周要去博物馆参观。", "这个周末我打算在家打扫卫生。",
    "他的生日派对在一家意大利餐厅举行。", "我最近压力很大，晚上经常失眠。", "小区门口新开了一家咖啡店。",
    "I woke up at seven and had toast for breakfast.", "We went hiking with friends over the weekend.",
    "The restaurant downtown serves really spicy noodles.", "My laptop stopped working, so I am taking it in for repair.",
    "Mom called to ask when I am coming home for the holidays.", "The office is moving to a new building next month.",
    "It rained heavily last night and the streets flooded.", "I have been learning to play the guitar.",
    "The kids are playing soccer in the park.", "Her favourite colour is blue.",
    "We are planning a trip to Japan next summer.", "The doctor told me to drink more water and sleep earlier.",
    "The novel is about a detective in Victorian London.", "Apples are on sale at the supermarket today.",
    "He rides his bike to work every day.", "I adopted a kitten and named her Luna.",
    "The meeting was moved to three in the afternoon.", "This year's exam was much harder than last year's.",
    "Grandma grows tomatoes in her garden.", "I found the movie a bit boring.",
    "The subway station is a five-minute walk from my place.", "They are discussing the budget for the new project.",
    "In winter I like to drink hot chocolate.", "My phone died, can I borrow your charger?",
    "A friend gave me a book about ancient history.", "Our class is visiting the science museum next week.",
    "This weekend I plan to clean the whole apartment.", "His birthday party was at an Italian restaurant.",
    "I have been stressed lately and cannot sleep well.", "A new coffee shop opened near our building.",
]
