// The concept groups of ConceptLexicon: one group a line, English words (lowercase, single words or
// two-word phrases separated by one space) and Chinese words (2 to 4 characters), all of one meaning
// in the vocabulary of app tools and requests to them. Written from general knowledge, not from any
// evaluation corpus. Edit by hand; keep a group to one clear meaning.
extension ConceptLexicon {
    static let groups = #"""
    calendar schedule agenda planner 日历 日程 日程表 排期 plate docket 什么安排 有啥安排 行程安排
    event occasion appointment 活动 事件 约见
    meeting conference standup 会议 开会 例会 碰头 会面 huddle 见面 碰个头
    invite invitation attendee participant guest rsvp 邀请 参会人 与会者 嘉宾
    reschedule postpone defer delay 改期 推迟 延后 改时间 bump 挪到 改到 往后推 换个时间
    cancel cancellation cancelled 取消 撤销 作废 不去了 nevermind scrap 不要了
    availability available free busy slot 有空 空闲 没空 空档 时段 有时间 忙不忙 得空
    recurring repeat daily weekly monthly 重复 每天 每周 每月 定期
    deadline due 截止 到期 期限 截止日期
    remind reminder remember nudge 提醒 记得 别忘了 提醒我 heads forget 忘了 忘记 提醒一下
    alarm wake snooze 闹钟 叫醒 起床 闹铃 贪睡 叫我 定个闹钟 闹一下
    timer countdown stopwatch 计时器 倒计时 秒表 计时 定时
    notification notify alert push 通知 推送 消息提醒 提示
    silent dnd vibrate 静音模式 勿扰 免打扰 震动 勿扰模式 别打扰
    email mail inbox gmail outlook 邮件 邮箱 电子邮件 收件箱 发邮件
    reply respond 回复 答复 回信 回一下
    forward fwd 转发 转寄 转给
    attachment attach attached 附件 附上 附带
    draft compose 草稿 起草 撰写 写信
    unread unseen 未读 未读邮件 新邮件
    spam junk phishing scam 垃圾邮件 钓鱼 诈骗 骗局
    archive archived 归档 存档 收起来
    cc bcc recipient 抄送 密送 收件人
    unsubscribe newsletter 退订 取消订阅 订阅邮件
    text sms message ping dm imessage texting 短信 信息 消息 发消息 私信 发短信 msg txt 发条消息 发个信息
    chat conversation whatsapp wechat telegram messenger 聊天 对话 微信 会话
    group channel slack 群聊 群组 频道 群消息
    call phone dial ring callback missed 打电话 通话 拨打 致电 来电 回电 未接来电 redial 打给 拨号 重拨 通话记录 接电话 接听
    facetime zoom webex 视频通话 视频会议 视频电话
    voicemail 语音信箱 语音留言 语音消息
    block blocklist blacklist 拉黑 屏蔽 黑名单
    contact phonebook 联系人 通讯录 电话簿 vcard 名片 电话本
    mobile cellphone cell 电话号码 手机号 手机号码
    address street zip postcode 地址 住址 街道 门牌号 邮编
    family mom mother mum dad father parents 家人 妈妈 爸爸 父母 老妈 老爸 kids kid children son daughter grandma grandpa 孩子 儿子 女儿 奶奶 爷爷
    friend buddy pal 朋友 好友 哥们 闺蜜
    colleague coworker boss manager 同事 老板 领导 上司
    wife husband spouse partner 老婆 老公 妻子 丈夫 爱人
    birthday anniversary bday 生日 纪念日 周年
    weather forecast 天气 预报 天气预报 天气如何 meteorology 气象 天气情况
    temperature degrees celsius fahrenheit 温度 气温 度数 摄氏度 华氏度
    rain rainy raining umbrella drizzle 下雨 雨天 带伞 雨伞 降雨 precipitation pour pouring 阵雨 暴雨 大雨 小雨 要下雨 会下雨 淋雨
    snow snowy snowing blizzard 下雪 雪天 暴雪 降雪 sleet hail flurries 冰雹 雨夹雪 积雪
    sunny sunshine 晴天 晴朗 阳光 出太阳
    cloudy overcast fog foggy 多云 阴天 雾天 大雾
    wind windy gust breeze 刮风 大风 风力 风速
    storm thunderstorm thunder lightning typhoon hurricane 暴风雨 雷雨 台风 打雷 飓风
    humidity humid muggy 湿度 潮湿 闷热
    aqi pollution smog haze 空气质量 雾霾 污染 空气污染
    uv ultraviolet sunscreen sunburn 紫外线 防晒 晒伤
    sunrise sunset dawn dusk 日出 日落 黄昏 天亮
    map 地图 高德 百度地图
    navigate navigation directions route gps 导航 路线 怎么走 路线规划 指路 怎么去 带我去 怎么过去
    distance far 距离 多远 远近 有多远 远不远 多少公里
    traffic congestion jam gridlock 交通 堵车 拥堵 路况 塞车 rush 高峰 早高峰 晚高峰 堵不堵
    nearby nearest near 附近 周边 周围 离我近 closest 最近的 旁边
    location position coordinates whereabouts 位置 定位 地点 坐标 在哪 共享位置 实时位置 我在哪 这是哪
    parking carpark 停车 停车场 车位 泊车 停车费 泊位 停哪
    gas petrol gasoline fuel 加油站 加油 汽油 油价
    ev charger supercharger 充电桩 充电站 新能源车
    walking walk pedestrian 步行 走路 走着去
    driving drive 开车 驾车 自驾 驾驶
    bus coach 公交 公交车 巴士 公交站 大巴 长途车
    subway metro underground tube 地铁 轨道交通 地铁站
    arrive arrival eta 到达 抵达 多久到 预计到达
    commute commuting 通勤 上下班 上班路上
    toll highway freeway motorway expressway 高速 高速公路 收费站 过路费
    accident collision wreck 车祸 交通事故 封路
    taxi cab uber lyft didi ride 打车 叫车 出租车 网约车 滴滴 的士 叫辆车 打个车 约车
    carpool rideshare 拼车 顺风车 合乘
    pickup 接人 来接 上车点 接送
    driver chauffeur 司机 师傅 驾驶员
    fare 车费 打车费 车钱
    destination dropoff 目的地 终点 下车点
    bike bicycle scooter 共享单车 单车 自行车 电动车
    flight fly plane airplane airline 航班 飞机 机票 坐飞机 航空公司 airfare 航班号
    airport gate 机场 航站楼 登机口
    checkin boarding 值机 登机 登机牌 办理登机 网上值机 在线值机
    delayed late 延误 晚点 准点 航班动态 punctual 晚点了
    train rail railway amtrak 火车 高铁 动车 列车 车票 铁路 火车票 高铁票 坐高铁 坐火车
    seat aisle 座位 选座 靠窗 靠过道
    hotel motel inn lodging accommodation airbnb 酒店 宾馆 住宿 民宿 旅馆 入住 退房 hostel resort 住一晚
    room suite 房间 客房 房型 大床房
    book booking reserve reservation 预订 预定 预约 订票 订房
    trip travel vacation journey getaway 旅行 旅游 度假 出游 出行 出差 出去玩 自由行
    itinerary 行程 行程单 旅行计划
    passport visa customs immigration 护照 签证 海关 入境 evisa 落地签 免签
    luggage baggage suitcase 行李 托运 行李箱 随身行李 行李额 行李超重
    rental hire 租车 汽车租赁 租辆车 hertz avis zipcar
    attractions sightseeing landmark 景点 景区 名胜 旅游景点
    departure depart takeoff 出发 起飞 离开 发车
    loyalty rewards points mileage 积分 里程 奖励 常旅客
    currency forex 货币 外汇 币种
    exchange fx 汇率 牌价 兑换 换汇 换钱
    dollar usd buck 美元 美金
    euro eur 欧元 欧元区
    yuan rmb cny renminbi 人民币 块钱 软妹币
    yen jpy 日元 日币
    pound gbp sterling quid 英镑
    translate translation translator interpret 翻译 译成 口译 翻成 翻一下 怎么说 译文
    language 语言 语种 外语
    english 英语 英文 英文版
    chinese mandarin 中文 汉语 普通话 国语
    japanese 日语 日文 日本语
    korean 韩语 韩文 朝鲜语
    french francais 法语 法文
    spanish espanol 西班牙语 西语
    pronounce pronunciation 发音 读音 怎么读
    dictionary definition meaning define 词典 字典 释义 意思 vocab 生词 查词 什么意思
    music song tune 音乐 歌曲 听歌 曲子 spotify pandora 网易云 酷狗
    play playing playback 播放 放歌 来一首 开始播放 来首 放首 放一首
    pause resume unpause 暂停 继续播放 停一下 停止播放 别放了
    skip 下一首 上一首 切歌 跳过 换首歌 换一首 切一首 下一曲 上一曲
    playlist mix 歌单 播放列表 歌曲列表
    artist singer band musician 歌手 艺人 乐队 歌星
    album 专辑 唱片 新专辑
    lyrics songtext 歌词 唱词
    podcast episode 播客 节目 单集 喜马拉雅 听节目
    radio fm broadcast 电台 收音机 广播 调频
    video clip youtube tiktok 视频 短视频 抖音 影片 vlog bilibili 哔哩哔哩
    movie film cinema showtimes 电影 看电影 影院 场次 flick 看片 大片 上映
    tv television series 电视 电视剧 剧集 追剧 netflix hulu 爱奇艺 优酷 腾讯视频 看电视 看剧
    livestream streaming 直播 开播 直播间
    volume louder quieter loud quiet softer 音量 大声 小声 调大 调小 声音 crank blast noisy inaudible 大声点 小声点 太吵 太吵了 听不见 听不清 调高音量
    mute unmute 静音 取消静音 关声音
    shuffle loop 随机播放 单曲循环 循环播放 随机 顺序播放 列表循环
    speaker soundbar 音箱 音响 喇叭
    headphones earphones earbuds airpods 耳机 蓝牙耳机 耳麦
    bluetooth pair pairing 蓝牙 配对 连接设备
    audiobook 有声书 听书 有声读物 懒人听书
    favorite favourite bookmark starred 收藏 收藏夹 书签 加星标
    cast casting airplay chromecast 投屏 投射 无线投屏
    light lamp bulb lighting 灯光 电灯 台灯 照明 开灯 关灯 nightlight 灯泡 吊灯 把灯 开个灯 夜灯
    on enable activate 打开 开启 开机 激活
    off disable deactivate shutdown 关掉 关上 关机 熄灭
    open launch 启动 打开应用 运行
    close quit exit 关闭 退出 关闭应用
    dim dimmer brightness brighter darker 亮度 调暗 调亮 暗一点 亮一点 brighten 太亮 太暗 刺眼
    color colour hue 颜色 色彩 灯色
    thermostat nest climate 恒温器 温控 温控器 室温
    heating heater heat radiator furnace cold chilly freezing warmer 暖气 供暖 取暖 加热 冷死了 好冷
    ac aircon conditioner conditioning cooling cool hot warm 空调 冷气 制冷 降温 热死了 好热 hvac 开空调 开冷气
    fan 风扇 电扇 吊扇
    lock locked 锁门 上锁 锁上 门锁 deadbolt 锁好 锁了
    unlock unlocked 开锁 解锁 开门
    garage 车库门 车库 卷帘门
    camera cctv surveillance 摄像头 摄像机 监控画面
    doorbell 门铃 可视门铃 按门铃
    security arm disarm 安防 布防 撤防 安防系统
    vacuum roomba hoover mop 扫地机 吸尘器 扫地 拖地 robovac 扫地机器
    plug outlet socket 插座 智能插座 插头
    blinds curtains shades shutters 窗帘 百叶窗 遮光帘 卷帘 drapes 拉窗帘 关窗帘 开窗帘
    routine automation scene 场景 自动化 联动 情景模式 goodnight 离家模式 回家模式 睡眠模式 晚安模式
    humidifier dehumidifier 加湿器 除湿机 除湿
    purifier 净化器 空气净化 新风系统
    laundry washer dryer 洗衣机 洗衣 烘干 烘干机
    boiler geyser 热水器 热水 洗澡水
    homekit alexa smartthings 智能家居 米家 智能设备
    device gadget appliance 设备 家电 电器
    sensor detector 传感器 感应器 烟感 烟雾报警
    bank banking 银行 网银 银行账户
    account 账户 账号 户头
    balance 余额 账户余额 剩余金额 还剩多少 剩多少钱 余额多少
    transfer wire remittance remit venmo zelle 转账 汇款 打款 转钱 打钱 汇钱 转笔钱
    pay payment paypal 支付 付款 付钱 买单 paid paying 付了 交钱
    receive 收款 收钱 到账
    bill 账单 缴费 交费 付账单 bills utility utilities autopay 生活缴费 水电费 自动扣款
    invoice receipt 发票 收据 小票 开票
    expense spending spend 支出 花费 开销 花销 spent 花了 消费 记账 记一笔
    reimbursement reimburse 报销 报销单 费用报销
    budget budgeting 预算 限额 开支计划
    card credit debit mastercard 银行卡 信用卡 借记卡 刷卡 amex 卡号 绑卡 储蓄卡
    freeze 挂失 冻结 冻结卡
    loan borrow lending lend 贷款 借款 借钱
    mortgage 房贷 按揭 房屋贷款 refinance heloc 房贷利率
    interest apr apy compound 利息 利率 年化 复利
    repay repayment installment 还款 还钱 分期 月供 klarna afterpay bnpl 花呗 白条 分期付款
    invest investing investment portfolio 投资 理财 投资组合 持仓
    stock equity ticker 股票 个股 炒股 持股
    nasdaq dow index market quote 股市 大盘 指数 行情 股价
    fund etf 基金 定投 基金净值
    crypto cryptocurrency bitcoin btc ethereum eth 加密货币 比特币 以太坊 数字货币 币圈 solana usdt 狗狗币 币价
    dividend payout 分红 股息 派息
    buy purchase 购买 买入 入手 买下
    sell selling sold 卖出 出售 卖掉 抛售
    wallet alipay applepay 钱包 支付宝 微信支付 电子钱包
    qr barcode 扫码 二维码 条形码 扫一扫
    refund chargeback 退款 退钱 返还
    top recharge reload 充值 充钱 话费充值
    subscription subscribe renew renewal 订阅 续费 包月 自动续费
    membership member vip 会员 会员卡 贵宾
    salary paycheck payroll income wage 工资 薪水 收入 发工资 payday payslip 发薪 发薪日 工资条 到手
    tax vat 税费 报税 个税 增值税 纳税 irs deduction 退税 税率 扣税 所得税
    split dutch 平摊 均摊 分账 凑份子 splitwise 人均 各付各的
    owe debt iou 欠款 欠钱 债务 欠债 owes owed 欠我 我欠 还欠
    fraud unauthorized dispute 盗刷 欺诈 申诉 被盗刷
    transaction statement 交易记录 流水 对账单 明细
    savings deposit 存钱 储蓄 存款 攒钱
    withdraw withdrawal atm cash 取钱 取款 提现 现金
    insurance policy claim 保险 保单 理赔 投保
    overdue arrears 逾期 欠费 滞纳金
    hongbao 红包 发红包 抢红包
    fee surcharge 手续费 费用 收费 服务费
    shopping shop store mall 购物 网购 商场 买东西 逛街
    order 订单 订购 下单 我的订单
    cart basket 购物车 加购 加购物车
    checkout 结账 结算 收银台
    delivery deliver ship shipping shipment package parcel courier 配送 送货 发货 送达 快递 包裹 快件 签收 到货 送到
    tracking 物流 查快递 快递单号 运单号 track 到哪了 派送 物流信息 快递到哪
    locker collect 自提 取件 快递柜 取件码
    return 退货 换货 退换货 寄回 退回 退掉
    coupon voucher promo 优惠券 优惠码 代金券 抵用券 满减 折扣码 领券
    discount sale deal offer 打折 折扣 优惠 促销 特价 秒杀 bargain clearance 大促 双十一 降价 清仓
    compare comparison cheapest 比价 最便宜 最低价 货比三家
    price cost pricing expensive 价格 多少钱 价钱 售价 贵不贵 pricey 价位
    cheap inexpensive affordable 便宜 实惠 划算 性价比
    product item goods 商品 产品 宝贝 货物
    inventory restock 有货 缺货 库存 现货 卖光了 没货 补货
    wishlist 心愿单 愿望单 想买
    review rating stars 评价 评分 好评 差评 口碑 买家秀
    grocery supermarket 超市 买菜 生鲜 杂货 买点菜 菜市场 盒马
    amazon ebay taobao jd 淘宝 京东 拼多多 天猫
    repair repairman 维修 修理 报修 坏了
    support helpdesk 客服 人工客服 售后 转人工 找客服 在线客服
    complaint complain 投诉 举报 抱怨
    feedback suggestion survey 反馈 意见 建议 问卷
    note memo jot 笔记 备忘录 记下 便签 备忘 notepad evernote onenote 记一下 记下来 帮我记 记录一下 写下来 印象笔记
    document doc 文档 文稿 在线文档
    file 文件 档案 资料
    folder directory 文件夹 目录
    pdf acrobat 电子版 电子文档
    dropbox icloud onedrive gdrive 云盘 网盘 云存储 百度网盘
    upload uploading 上传 传上去 上载
    download downloading 下载 下载到 离线下载
    share sharing 分享 共享 分享链接
    link url hyperlink website 链接 网址 网站 网页
    spreadsheet excel sheet csv 表格 电子表格 工作表
    presentation slides powerpoint deck ppt 幻灯片 演示文稿 演讲稿
    edit editing modify revise 编辑 修改 改一下 更改
    delete remove erase 删除 删掉 去掉 清除
    create creating 新建 创建 建立 新增
    add insert append 添加 加入 加上 加个
    save saved 保存 存下 保留 存起来
    copy duplicate clone 复制 拷贝 副本
    print printer printing 打印 打印机 打出来
    scan scanner scanned 扫描 扫描仪 扫描件
    export 导出 输出 另存为
    search find lookup query 搜索 查找 搜一下 查一下 查询 百度 bing 查查 帮我查 搜搜
    summarize summary tldr 总结 摘要 概括 归纳 recap
    signature esign docusign signing 签名 签字 签署 电子签
    version revision 版本 历史版本 修订
    photo picture image pic selfie 照片 图片 相片 拍照 自拍 snap photograph 拍张照 照相 拍个照 相机
    gallery 相册 图库 相簿 照片库 相机胶卷
    screenshot 截图 截屏 屏幕截图 screengrab printscreen 截个图 截一下 截张图
    record recording recorder 录音 录制 录像
    transcribe transcription dictation 转写 转文字 听写 语音转写
    tts narrate aloud 朗读 读出来 语音播报
    ebook kindle novel 电子书 看书 阅读 小说
    filter crop retouch 修图 滤镜 裁剪 美颜
    task todo 任务 待办 待办事项 事项 要做的事
    list checklist 清单 列表 购物清单
    done complete completed finish finished 完成 做完 搞定 勾选 打勾 划掉 做好了
    priority urgent important 优先级 紧急 重要 要紧
    assign assignee owner delegate 分配 指派 负责人 交给
    project 项目 工程 专案
    progress status 进度 状态 进展
    goal objective okr target 目标 小目标 年度目标
    plan planning 计划 规划 打算 安排
    habit streak 习惯 坚持 养成 连续天数
    focus pomodoro concentrate 专注 番茄钟 专心
    journal diary journaling 日记 手账 心情日记
    steps pedometer 步数 计步 计步器 走了几步
    workout exercise training fitness gym 锻炼 健身 运动 训练 健身房 hiit crossfit 撸铁 力量训练
    run running jog jogging 跑步 慢跑 晨跑 夜跑 marathon 马拉松
    cycling biking 骑行 骑车 动感单车
    swim swimming pool 游泳 泳池 游泳馆
    yoga pilates stretch stretching 瑜伽 普拉提 拉伸
    calorie kcal 卡路里 热量 大卡 千卡 burn 燃脂 消耗热量
    sleep sleeping bedtime nap insomnia 睡眠 睡觉 午睡 入睡 失眠 slept asleep 几点睡 睡眠质量
    heart pulse bpm 心率 心跳 脉搏
    blood pressure bp hypertension 血压 高血压 低血压
    glucose diabetes 血糖 糖尿病 测血糖
    spo2 oxygen 血氧 血氧仪 含氧量
    weight bmi 体重 体脂 称重 胖了 weigh 几斤 多少斤 体重秤
    diet slim 减肥 减重 瘦身 节食 keto 轻断食 断食
    medication medicine meds pills drug dose 吃药 服药 药物 用药 药品 dosage 剂量 该吃药 吃几片
    prescription refill pharmacy 处方 药房 药店 开药
    doctor physician gp 医生 大夫 看医生 看病
    hospital clinic outpatient 医院 诊所 门诊 卫生院
    consultation telehealth 挂号 预约挂号 网上挂号 问诊
    checkup physical 体检 健康检查 年度体检
    symptom sick ill unwell 症状 生病 不舒服 病了 难受 身体不适
    fever 发烧 发热 高烧 退烧
    flu cough 感冒 流感 咳嗽 嗓子疼 sneeze sneezing runny 流鼻涕 打喷嚏 鼻塞
    allergy allergic 过敏 过敏原 过敏反应
    ambulance emergency 急救 救护车 急诊
    sos police 911 求救 报警 紧急呼叫 警察 救命
    hydration 喝水 饮水 补水 喝水提醒 thirsty 口渴 多喝水
    meditation mindfulness breathe breathing 冥想 正念 深呼吸 呼吸练习
    stress anxiety mood 压力 焦虑 情绪 心理健康
    vaccine vaccination jab 疫苗 打疫苗 接种 打针
    health wellness 健康 健康数据 身体状况
    recipe 菜谱 食谱 做法 怎么做菜
    cook cooking 做饭 烹饪 下厨 做菜 bake baking 烘焙 炒菜
    ingredient 食材 配料 原料 用料
    restaurant diner eatery yelp 餐厅 饭店 餐馆 饭馆 大众点评 bistro 好吃的 下馆子 馆子
    table opentable 订座 订位 订桌 订餐厅 订个位 订张桌
    takeout takeaway doordash ubereats grubhub 外卖 点外卖 美团 饿了么 叫外卖 deliveroo postmates 叫个外卖 外送
    menu dish 菜单 菜品 点菜 招牌菜
    hungry starving 饿了 好饿 饿死了 peckish 肚子饿 饿坏了
    food cuisine eat eating 美食 食物 饭菜 吃什么
    meal breakfast brunch lunch dinner supper 早餐 午餐 晚餐 吃饭 饭点
    coffee cafe latte starbucks 咖啡 咖啡店 拿铁 星巴克 espresso cappuccino 来杯咖啡
    nutrition protein carbs macros 营养 蛋白质 碳水 营养成分 fiber sodium 脂肪 含糖量
    tip tipping gratuity 小费 给小费 打赏
    queue waitlist 排队 等位 取号 叫号
    deploy deployment rollout release 部署 发布 上线 发版
    rollback revert downgrade 回滚 回退 降级 版本回退
    log logging syslog 日志 日志文件 运行日志 查日志 看日志
    error exception failure traceback 错误 报错 异常 出错 stacktrace 堆栈 调用栈
    crash crashed 崩溃 闪退 卡死
    outage downtime 宕机 故障 挂了 服务中断
    bug defect glitch 缺陷 毛病 程序错误
    server host instance vm 服务器 主机 实例 虚拟机
    database db sql postgres mysql 数据库 数据表 库表
    ticket issue jira 工单 问题单 需求单 youtrack 问题跟踪
    pr 合并请求 拉取请求 代码合并
    reviewer lgtm 代码审查 代码评审 评审
    approve approval 审批 批准 通过 同意
    merge merging conflict 合并 合入 冲突
    build compile compilation 构建 编译 打包 artifact 编不过 构建失败
    ci pipeline jenkins 持续集成 流水线 自动构建 circleci travis buildkite 持续交付
    test testing qa 测试 单元测试 测试用例 unittest pytest flaky 跑测试 测试失败
    commit 代码提交 提交记录 推送代码
    branch 分支 主分支 主干 trunk 切分支 拉分支
    repo repository github gitlab 仓库 代码库 代码仓库 git fork bitbucket
    monitor monitoring observability grafana datadog 监控 可观测 监控系统
    alerting pagerduty opsgenie 告警 告警规则 告警通知
    oncall pager 值班 轮值 值守
    incident postmortem sev 线上事故 故障单 复盘 事故报告
    latency lag 延迟 时延 响应时间
    performance slow sluggish 性能 很慢 变慢 卡顿
    cpu memory ram 内存 处理器 负载 占用率 gpu 显卡 显存
    disk storage 磁盘 硬盘 存储空间 空间不足
    restart reboot relaunch 重启 重新启动 重开
    scale scaling autoscale replicas 扩容 缩容 伸缩
    container docker kubernetes k8s pod 容器 集群 镜像 容器化
    api endpoint webhook 接口 端点 回调
    config configuration env 配置 配置文件 环境变量
    token credential secret apikey 密钥 令牌 凭证 秘钥
    permission access role grant 权限 授权 访问权限
    cache caching redis cdn 缓存 清缓存 刷新缓存
    command shell terminal script cli execute 执行 命令 终端 脚本 命令行
    cron crontab 定时任务 计划任务 定时作业
    backup restore snapshot 备份 恢复 还原 快照
    vulnerability cve patch 漏洞 安全漏洞 补丁 打补丁
    code coding programming 代码 编程 写代码 源码
    debug debugging troubleshoot 调试 排查 排错 定位问题
    staging production prod environment 生产环境 测试环境 预发 线上环境
    metric stats statistics analytics 指标 统计 数据分析 数据统计
    dashboard 仪表盘 仪表板 概览 数据大屏
    timeout 超时 连接超时 请求超时
    microservice 微服务 服务实例 后端服务
    cloud aws azure gcp 云服务 阿里云 腾讯云 云平台
    calculate calculator compute math 计算 算一下 计算器 算算 calc 算一算 帮我算 等于几 等于多少
    plus sum addition total 加法 求和 相加 总和 加起来 一共 总共 合计 加一起
    subtract minus difference 减法 相减 减去 差值
    multiply multiplied multiplication 乘法 乘以 相乘 乘积
    divide division quotient 除法 除以 相除 平分
    percent percentage % pct 百分比 百分之 百分点
    ratio proportion 比例 比率 占比
    average median 平均 平均值 中位数 均值
    sqrt exponent squared 平方 平方根 开方 乘方
    convert conversion unit 换算 转换 单位换算 单位 换成 折合
    kilometer km mile meter feet inch cm 公里 千米 英里 英尺 英寸 厘米
    kilogram kg lb gram ounce oz 公斤 千克 盎司 磅数
    speed mph kph 速度 时速 车速 每小时
    random dice coin 随机数 掷骰子 抛硬币 随机选
    count counting 数量 多少个 计数 几个
    chart graph plot 图表 曲线图 柱状图 折线图
    age 年龄 岁数 几岁 多大了
    news headline 新闻 头条 资讯 快讯 最新消息 要闻
    trending trend viral popular 热搜 热门 热点 趋势 热榜 刷屏 火了
    article blog 文章 博客 报道
    sport match tournament league 体育 比赛 球赛 赛事 fixture fixtures 赛程 对阵
    score scoreboard 比分 得分 赛果 比赛结果 win winner 谁赢了 赢了 输赢
    soccer football 足球 世界杯 英超 踢球
    game gaming 游戏 玩游戏 打游戏 手游 sudoku chess crossword 下棋 象棋 数独
    wikipedia wiki encyclopedia 百科 维基 百度百科 维基百科
    post tweet publish 发帖 发动态 朋友圈 发微博 推文 发个帖 晒图 发条动态
    follow following follower unfollow 关注 粉丝 取关 取消关注
    upvote thumbsup 点赞 赞同 点个赞
    comment 评论 留言 回帖
    repost retweet reshare 转发 转帖 转载
    social twitter facebook instagram weibo 社交媒体 微博 小红书 脸书 社交平台 linkedin snapchat reddit pinterest 领英 知乎 豆瓣 快手
    profile bio avatar 个人资料 头像 主页 个人主页
    tag label 标签 打标签 标记
    time clock 时间 几点 几点了 时刻
    timezone utc gmt 时区 时差 世界时钟
    date 日期 几号 哪天 日子
    weekday 星期几 周几 礼拜 工作日 monday tuesday wednesday thursday friday 周一 周二 周三 周四 周五 星期一 星期二 星期三 星期四 星期五
    weekend saturday sunday 周末 星期六 星期天 周六 周日
    today 今天 今日 今儿
    tonight 今晚 今夜 今天晚上
    tomorrow tmr 明天 明日 明儿
    yesterday 昨天 昨日 昨儿
    morning 早上 上午 早晨 清早 一大早
    evening night 晚上 夜里 夜间 傍晚
    week 本周 这周 下周 一周
    month 本月 这个月 下个月 月份
    holiday 节日 假期 节假日 放假 春节 过年 christmas thanksgiving easter halloween 圣诞 中秋 国庆 端午 元旦
    lunar 农历 阴历 黄历
    duration 多久 多长时间 时长
    later soon 稍后 待会 一会儿 等会
    electricity 电费 用电 电力 用电量 energy kwh 能耗 耗电
    water 水费 用水 停水
    prepaid carrier 话费 流量 套餐 手机套餐 cellular 移动数据
    wifi wireless network 无线网 网络 连网 移动热点 wlan hotspot tethering 个人热点 开热点 没网 连不上网
    internet broadband isp 宽带 网费 上网 网速
    rent landlord lease apartment tenant 房租 租房 房东 租金
    hoa 物业 物业费 管理费
    plumber plumbing leak pipe 漏水 水管 下水道 通马桶
    garbage trash rubbish recycling 垃圾 倒垃圾 垃圾分类 回收
    cleaning housekeeping maid cleaner 保洁 打扫 家政 打扫卫生
    blackout 停电 断电 跳闸
    pet dog cat 宠物 狗狗 猫咪 遛狗 feeder 喂食器 猫粮 狗粮
    school homework class 学校 上课 作业 写作业
    car vehicle auto 汽车 车辆 爱车 私家车
    maintenance oil tire tyre carwash 保养 换机油 轮胎 洗车 年检
    login signin 登录 登陆 登入
    logout signout 退出登录 登出 注销
    register registration signup enroll 注册 报名 开户 注册账号
    password passcode pin 密码 忘记密码 重置密码 改密码
    otp 2fa verification 验证码 短信验证 验证 认证
    settings preferences options 设置 偏好 选项 偏好设置
    update upgrade 更新 升级 新版本 版本更新
    sync syncing synchronize 同步 同步数据 数据同步
    battery charging charge 电量 电池 充电 没电了 powersave 省电 省电模式 快没电
    findmy locate 找手机 查找手机 定位手机 手机丢了
    help tutorial instructions guide howto 帮助 教程 怎么用 指南 使用说明
    job career hiring vacancy 工作 找工作 招聘 求职
    leave pto 请假 休假 年假 病假 调休 请个假 事假 产假
    attendance timesheet 考勤 打卡 签到 上班打卡 工时 工时填报
    concert gig 演唱会 音乐会 演出 现场
    ticket admission 门票 购票 售票 票务 抢票 余票
    submit 提交 递交 上交
    boardroom 会议室 订会议室 会场 小会议室
    autoreply autoresponder ooo 自动回复 外出 休假回复 不在岗
    accept decline tentative 接受 接受邀请 婉拒 拒绝邀请
    upcoming forthcoming 即将 近期 即将到来 快到了
    noon midday lunchtime 中午 正午 午间 晌午
    afternoon arvo 下午 午后 今天下午
    midnight overnight 半夜 午夜 凌晨 深夜
    year yearly annual annually 今年 明年 去年 年度 全年
    hour hourly minute mins 小时 分钟 钟头 半小时
    party parties gathering 聚会 派对 聚餐 庆祝 轰趴
    quarter quarterly fiscal 季度 上季度 季报 财年
    season seasonal spring summer autumn winter 春天 夏天 秋天 冬天 季节
    relay 告诉他 转告 带个话 捎个话 说一声
    speakerphone handsfree 免提 扬声器 外放
    hang hangup 挂断 挂电话 挂掉
    emoji emojis sticker stickers gif 表情 表情包 贴纸 动图
    nickname alias 昵称 备注名 外号 绰号
    roaming 漫游 国际漫游 境外流量
    sim esim simcard 手机卡 电话卡 换卡
    ringtone ringtones 铃声 来电铃声 提示音
    robocall robocalls telemarketer telemarketing 骚扰电话 推销电话 广告电话
    群发 批量发送 群发消息 一键群发
    undo redo unsend 撤回 撤销 重做 撤回消息
    anc transparency 降噪 主动降噪 通透模式 降噪模式
    ambient 白噪音 白噪声 环境音 雨声 助眠音
    equalizer eq bass treble 均衡器 低音 重低音 音效
    genre jazz classical hiphop rap rock 爵士 摇滚 古典音乐 流行音乐 说唱
    shazam 听歌识曲 识曲 什么歌 哪首歌
    rewind seek fastforward scrub 快进 快退 倒带 进度条
    subtitle subtitles captions 字幕 中文字幕 双语字幕
    recommend recommendation recommended 推荐 求推荐 安利 种草
    karaoke sing singing 唱歌 练歌 唱一首
    lullaby lullabies nursery 摇篮曲 儿歌 童谣
    anime cartoon cartoons 动漫 动画 番剧 动画片
    documentary documentaries 纪录片 纪实 纪录
    teaser 预告片 预告 先导片
    variety talkshow 综艺 综艺节目 真人秀 脱口秀
    oven microwave stove ricecooker airfryer 烤箱 微波炉 电饭煲 空气炸锅 灶台
    fridge refrigerator 冰箱 冰柜 冷藏 冷冻室
    dishwasher 洗碗机 洗碗 刷碗
    kettle 烧水 热水壶 电水壶 烧壶水
    sprinkler sprinklers irrigation lawn garden 浇水 浇花 草坪 洒水 花园
    skylight 窗户 开窗 关窗 窗子
    solar photovoltaic 太阳能 光伏 发电量
    projector 投影仪 投影 幕布
    modem mesh 路由器 光猫 重启路由
    vet veterinarian 兽医 宠物医院 宠物看病
    wear outfit jacket coat clothes clothing 穿什么 穿衣 外套 衣服 穿衣指数
    pollen hayfever 花粉 花粉浓度 花粉症
    heatwave scorching sweltering 高温 酷暑 热浪 中暑
    frost frosty icy 霜冻 结冰 寒潮 冷空气 寒流
    tide tides surf 潮汐 涨潮 退潮 海浪
    earthquake quake tsunami seismic 地震 海啸 震级 余震
    moon moonrise 月亮 月相 满月 月出
    advisory 预警 气象预警 暴雨预警 红色预警
    wildfire bushfire 山火 森林火灾 火灾
    flood flooding 洪水 内涝 积水 发大水
    ski skiing snowboard snowboarding 滑雪 雪场 单板 双板
    detour reroute bypass 绕路 绕行 换条路 绕道
    fastest quickest shortest 最快 最短 抄近路 近道
    violation citation speeding 违章 罚单 扣分 违停 查违章 电子眼
    营业时间 打烊 几点开门 几点关门 营业中 还营业吗
    restroom toilet bathroom washroom loo 厕所 洗手间 卫生间 公厕
    transit transportation 公共交通 换乘 坐车 乘车
    timetable timetables 时刻表 班次 首班车 末班车
    车站 站台 哪站下 公交站台 火车站
    ferry boat cruise 轮渡 渡轮 游轮 坐船 邮轮
    tram streetcar lightrail 有轨电车 轻轨
    compass bearing 指南针 罗盘 方位
    hike hiking trail trek trekking 徒步 爬山 登山 远足
    camping campsite campground 露营 营地 野营 帐篷
    beach seaside coast 海边 沙滩 海滩
    home house 家里 回家 到家 在家
    office workplace 办公室 上班 公司里 去公司
    altitude elevation 海拔 海拔高度
    land landing landed touchdown 落地 降落 着陆 几点到
    layover stopover 转机 中转 经停 联程
    roundtrip oneway 往返 单程 返程 回程
    economy firstclass 经济舱 商务舱 头等舱 舱位 升舱
    embassy consulate 大使馆 领事馆 使馆
    shuttle 接驳 机场大巴 摆渡车 接驳车
    lounge 贵宾厅 候机室 休息室 候机厅
    tsa screening 安检 过安检 安检口
    tour excursion 导游 跟团 旅行团 一日游
    dutyfree taxfree 免税 免税店 免税购物
    souvenir souvenirs 纪念品 伴手礼 特产
    rupee inr 卢比 印度卢比
    krw 韩元 韩币
    hkd 港币 港元
    cad loonie 加元 加币
    aud 澳元 澳币
    franc chf 瑞郎 瑞士法郎
    baht thb 泰铢
    peso mxn 比索
    ruble rouble 卢布
    sgd 新加坡元 新币
    twd ntd 新台币 台币
    vnd 越南盾 越盾
    snack snacks 零食 夜宵 宵夜 小吃
    boba bubbletea milktea 奶茶 珍珠奶茶 喝奶茶
    tea teahouse 喝茶 茶叶 茶馆 茶饮
    pub cocktail beer brewery 酒吧 喝酒 啤酒 红酒 鸡尾酒
    vitamin vitamins supplement supplements 维生素 保健品 补剂 鱼油
    vegetarian vegan glutenfree halal kosher 素食 吃素 素菜 清真
    dessert desserts cake pastry 甜点 蛋糕 甜品
    cup cups tablespoon teaspoon tbsp tsp 汤匙 茶匙 量杯 一勺
    liter litre milliliter gallon pint 毫升 加仑 公升 品脱
    bbq barbecue 烧烤 烤肉 撸串
    gift gifts giftcard 礼物 送礼 礼品 礼品卡
    warranty guarantee 保修 质保 保修期 延保
    secondhand resale thrift 二手 闲鱼 转卖 二手货
    florist bouquet flowers 鲜花 花店 订花 送花
    尺码 尺寸 码数 穿几码 大小
    specs spec specification 规格 型号 配置参数
    postage 运费 包邮 邮费 运费险
    brand brands 品牌 牌子 大牌
    auction bid bidding 拍卖 竞拍 出价
    preorder presale 预售 预购 定金 尾款
    groupbuy groupon 团购 拼团 砍一刀 砍价
    cashback rebate 返现 返利 返点
    declined bounced insufficient 支付失败 付款失败 余额不足 扣款失败
    profit loss pnl gains 盈亏 收益 赚了 亏了
    bullish bearish 牛市 熊市 涨停 跌停
    fico experian equifax 征信 信用分 芝麻信用 信用报告
    pension retirement 养老金 退休金 社保 养老保险
    donate donating charity 捐款 捐赠 慈善 募捐
    gold silver 黄金 金价 白银 金条
    iban bic 银行账号 开户行 账户号
    lottery lotto powerball 彩票 开奖 双色球
    inflation cpi 通胀 通货膨胀 物价
    networth 资产 总资产 净资产 身家
    bond bonds treasury yield 债券 国债 收益率
    futures derivatives 期货 期权 衍生品
    ipo 新股 打新 上市
    overdraft overdrawn 透支 透支额度
    额度 信用额度 提额 临时额度
    payee beneficiary 收款人 收款方 受益人
    accountant bookkeeping cpa 会计 财务 做账
    dentist dental teeth tooth toothache 牙医 看牙 牙疼 洗牙 口腔
    optometrist eyesight eyeglasses 眼科 视力 近视 配眼镜 眼镜
    therapy therapist counseling counselor psychologist 心理咨询 心理医生 咨询师
    pain ache aches hurt hurts sore 疼痛 头疼 头痛 肚子疼 胃疼
    covid coronavirus antigen 新冠 核酸 抗原 阳了
    menstrual menstruation ovulation 经期 月经 大姨妈 排卵期 生理期
    pregnant pregnancy prenatal 怀孕 孕期 预产期 产检
    baby infant newborn diaper 宝宝 婴儿 喂奶 尿布 换尿布
    sedentary posture 久坐 坐太久 起来走走
    screentime 屏幕时间 屏幕使用 使用时长 防沉迷
    bloodwork labs 病历 化验 化验单 检查报告 体检报告
    injury injured sprain fracture 受伤 扭伤 骨折 摔伤
    nausea vomiting diarrhea 恶心 呕吐 拉肚子 腹泻
    rash itchy itching 瘙痒 起疹子 皮疹 过敏疹
    ecg ekg afib 心电图 心律 房颤 心律不齐
    eldercare caregiver 养老院 护工 看护 照顾老人
    chore chores errand errands 家务 杂事 跑腿 家务活
    wallpaper wallpapers 壁纸 桌面背景 锁屏壁纸 换壁纸
    rename renaming 重命名 改名 改名字
    compress decompress unzip 压缩 解压 压缩包 解压缩
    cleanup declutter 清理 清理空间 释放空间 垃圾清理
    template templates 模板 模版 样板
    form forms questionnaire 表单 填表 填写表单
    whiteboard brainstorm mindmap 思维导图 白板 头脑风暴
    fax faxing 传真 发传真 传真机
    proofread proofreading grammar typo typos 语法 错别字 校对 病句
    rewrite rephrase paraphrase polish 改写 润色 重写 换个说法
    essay copywriting 作文 文案 写文章 写作
    explain explanation 解释 讲解 解读 讲讲
    study studying learn learning flashcard flashcards 学习 复习 背单词 刷题
    exam exams grade grades gpa 考试 成绩 考研 高考 期末
    thesaurus synonym synonyms antonym 同义词 近义词 反义词
    spell spelling 拼写 怎么拼 拼音
    idiom idioms proverb 成语 谚语 俗语 歇后语
    poem poems poetry 诗歌 诗词 古诗 唐诗 写诗
    joke jokes funny humor 笑话 段子 讲个笑话 逗我
    story stories tale fairytale 故事 讲故事 童话 睡前故事
    trivia funfact 冷知识 趣味知识 小知识
    riddle riddles brainteaser 谜语 猜谜 急转弯 出个谜
    horoscope zodiac astrology 星座 运势 生肖 算命
    inspirational motivational motivation 名言 语录 励志 鸡汤
    ocr 文字识别 识别文字 提取文字
    draw drawing illustrate illustration 画图 画一张 生成图片 绘画 画画
    plant plants houseplant 植物 盆栽 绿植 花草
    montage trim 剪辑 剪视频 视频剪辑
    annotate annotation 批注 标注 划重点
    acre acres hectare sqft 平方米 公顷 英亩 平米
    megabyte gigabyte terabyte gb mb kb 字节 兆字节
    elapsed 相隔 相差 隔几天 间隔
    algebra solve 方程 解方程 代数
    perimeter circumference geometry 面积 周长 体积 几何
    fraction fractions decimal 小数 约分 分母 分子
    四舍五入 取整 约等于 保留小数
    binary hexadecimal hex octal 二进制 十六进制 进制
    timestamp epoch unix 时间戳 时间戳转
    encode decode urlencode 编码 解码 转码
    regex regexp 正则 正则表达
    hash hashing checksum sha 哈希 校验和 校验码
    lint linter prettier eslint 格式化 代码检查 代码规范
    basketball nba 篮球 打篮球 篮球赛
    baseball mlb 棒球 棒球赛
    tennis wimbledon 网球 温网 网球赛
    nfl superbowl 橄榄球 美式足球 超级碗
    hockey nhl 冰球 冰球赛
    golf pga 高尔夫 高尔夫球
    cricket ipl 板球 板球赛
    olympics olympic 奥运会 奥运 冬奥会
    badminton 羽毛球 打羽毛球
    pingpong tabletennis 乒乓球 打乒乓
    esports dota 电竞 英雄联盟 王者荣耀
    racing grandprix nascar 赛车 方程式 大奖赛
    ufc mma kickboxing 拳击 格斗 综合格斗
    leaderboard ranking rankings 积分榜 排名 排行榜
    lineup squad 球队 球员 阵容 首发
    highlights replay 集锦 回放 精彩瞬间 精彩回放
    odds bet betting bookmaker 赔率 投注 博彩 下注
    election elections vote voting poll 选举 投票 大选
    celebrity celebrities gossip 明星 八卦 娱乐圈
    diff diffs changeset 差异 代码差异 改动 对比
    changelog releasenotes 更新日志 发布说明 版本说明
    schema migration migrate migrations 迁移 表结构 数据迁移
    bucket buckets blob 存储桶 对象存储
    dns domain domains nameserver 域名 域名解析
    certificate cert ssl tls 证书 证书过期 证书续期
    firewall ports 防火墙 端口 安全组 白名单
    vpn proxy 翻墙 代理 梯子 代理服务
    ssh sftp 远程登录 远程连接 跳板机
    featureflag launchdarkly 功能开关 灰度 灰度发布
    dependency dependencies npm cargo 依赖 依赖包 三方库
    install installation uninstall reinstall 安装 卸载 装一下 重装
    sprint backlog kanban scrum agile 迭代 冲刺 看板 需求池
    throttle throttling quota 限流 配额 频率限制
    kafka rabbitmq sqs pubsub 消息队列 中间件
    uptime healthcheck 可用性 存活 探活 服务健康
    tracing traces opentelemetry jaeger 链路追踪 调用链
    flamegraph pprof 性能分析 火焰图 性能剖析
    snippet snippets gist 代码片段 片段
    terraform infrastructure iac pulumi 基础设施 基础架构
    fix fixes fixed hotfix bugfix 修复 热修复 修好 修一下
    benchmark benchmarks loadtest 压测 压力测试 基准测试
    rebase cherrypick squash 变基 压缩提交
    crm salesforce hubspot 客户管理 客户关系
    lead leads prospect prospects 线索 销售线索 潜在客户 商机
    client clients 客户 顾客 客人
    revenue turnover 营收 销售额 业绩 营业额
    proposal 报价 报价单 估价 询价
    contract contracts agreement nda 合同 签合同 合同条款
    onboarding onboard 入职 新员工 报到 入职手续
    resign resignation offboarding 离职 辞职 辞职信
    appraisal kpi evaluation 绩效 考核 绩效考核
    benefits perks 福利 待遇 五险一金
    employee employees staff personnel 员工 职工 人事 人力资源
    纪要 会议纪要 会议记录 会后总结
    overtime 加班 加班费 加班时长
    announcement announce bulletin 公告 通告 群公告 通知公告
    shift shifts roster rota 排班 换班 班表 轮班
    interview candidate recruiter cv 面试 候选人 简历 招人
    vendor supplier procurement 供应商 采购 供货商 采购单
    report reports reporting 报告 报表 周报 日报 汇报
    webinar lecture mooc 课程 网课 培训 讲座
    darkmode nightmode 深色模式 夜间模式 暗黑模式 护眼模式
    font fonts typeface 字体 字号 字体大小
    flashlight torch 手电筒 闪光灯 电筒
    rotate rotation orientation landscape portrait 旋转 横屏 竖屏 自动旋转
    keyboard keyboards 键盘 输入法 打字
    fingerprint faceid biometric biometrics 指纹 面容 人脸识别 刷脸
    clipboard paste 粘贴 剪贴板 复制粘贴
    accessibility voiceover magnifier 无障碍 放大镜 读屏 辅助功能
    reset factory 恢复出厂 出厂设置 重置
    遥控器 遥控 换台 调台
    smartwatch fitbit garmin 手表 手环 智能手表
    laptop pc desktop 电脑 台式机 手提电脑
    screencast screenrecord 录屏 屏幕录制 录个屏
    hashtag hashtags 话题 热门话题 带话题
    impressions engagement pageviews 浏览量 阅读量 播放量 曝光量
    tinder bumble hinge 约会 相亲 脱单 交友
    haircut barber salon hairdresser 理发 剪头发 美发 理发店
    massage spa 按摩 推拿 足疗 按摩店
    manicure pedicure 美甲 做指甲 美睫
    relocation relocate 搬家 搬家公司 搬运
    babysitter nanny childcare daycare 保姆 育儿嫂 托儿所 带娃
    wedding weddings marriage 婚礼 结婚 婚宴 喜酒
    realtor zillow 房价 买房 楼盘 房产 看房
    reception 信号 没信号 信号差 信号不好
    speedtest 测网速 网速测试 网速慢
    snore snoring 打呼噜 打鼾 呼噜
    家长控制 儿童模式 未成年 青少年
    dst daylight 夏令时 冬令时
    radar 雷达 雷达图 降水图
    dmv 驾照 驾驶证 驾考 考驾照
    identification 身份证 证件 身份证号
    postoffice usps 邮局 寄信 挂号信 信件
    fedex dhl 寄快递 寄件 寄东西 上门取件
    admin administrator 管理员 超管 后台管理
    sso oauth saml 单点登录 三方登录
    coverage 覆盖率 测试覆盖 代码覆盖
    """#
}
